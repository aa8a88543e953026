// The independent validator of divisible-load schedules (STAR §5, `redist dlt check`).
//
// Shares no code with the solvers of planner.hpp: it re-derives everything from the instance and
// the transfers. Model (the switch model of STAR §5.1): every transfer runs at its constant `rate`
// from time 0, so it ends at amount / rate; worker i's link carries at most b_i, in each
// direction; a worker computes at speed s_i and may compute received load as it arrives, so it
// finishes by max((alpha_i - sent_i + received_i) / s_i, end of its last reception). With
// tolerances relative to the total initial load (loads), to b_i (rates) and to the
// recomputed makespan; each kTimeTolerance) it checks that
//  - every transfer names two distinct workers in [0, m), an amount >= 0 and a rate >= 0, and a
//    rate > 0 when the amount is > 0;
//  - no worker both sends and receives (senders and receivers are disjoint, as in the paper);
//  - a worker sends at most the load it holds: sent_i <= alpha_i;
//  - the rates of a worker's transfers sum to at most b_i;
//  - `makespan` (when stated) equals the recomputed makespan, the latest end of a transfer or of
//    a computation, and `delta` (when stated) has m entries equal to sent_i - received_i.
// Complexity: O(m + n) for n transfers.
#pragma once

#include <cstdint>

#include "redist/common/check.hpp"
#include "redist/dlt/model.hpp"

namespace redist::dlt {

// `check` reads at most this many transfers: about 1 GB of memory.
inline constexpr std::int64_t kMaxCheckedTransfers = 10000000;

// Which claims a schedule states: a planner's result states all; a document read from a file
// may leave out makespan or delta (io's reader says which), and check compares only those.
struct Stated {
  bool makespan = true;
  bool delta = true;
};

// The verdict on `schedule` and its recomputed makespan, comparing the claims `stated` names.
// InputError (path relative to the instance object) when the instance breaks the model
// (validate_instance).
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated = {});

}  // namespace redist::dlt
