// The independent validator of divisible-load schedules (STAR §5, `redist dlt check`).
//
// Shares no code with the solvers of planner.hpp: it re-derives everything from the instance and
// the transfers. Model (the switch model of STAR §5.1): every transfer runs at its constant `rate`
// from time 0, so it ends at amount / rate; worker i's link carries at most b_i, in each
// direction; a worker computes at speed s_i and may compute received load as it arrives, so it
// finishes by max((alpha_i - sent_i + received_i) / s_i, end of its last reception). It checks
// that
//  - every transfer names two distinct workers in [0, m), an amount >= 0 and a rate >= 0, and a
//    rate > 0 when the amount is > 0;
//  - no worker both sends and receives (senders and receivers are disjoint, as in the paper);
//  - a worker sends at most the load it holds: sent_i <= alpha_i;
//  - the rates of a worker's transfers sum to at most b_i;
//  - `makespan` (when stated) equals the recomputed makespan, the latest end of a transfer or of
//    a computation, and `delta` (when stated) has m entries equal to sent_i - received_i.
// Tolerances. A load compared with another (sent_i with alpha_i, a stated delta_i with
// sent_i - received_i) may exceed it by kTimeTolerance of the larger of the values compared plus
// the instance's resolution (resolution(): kTimeResolution of the total initial load), never by a
// tolerance of the total load, which one large worker would widen for every small one. A rate sum
// may exceed b_i by kTimeTolerance of b_i; the stated makespan may differ from the recomputed one
// by kTimeTolerance of it. The per-worker sums are Neumaier-compensated, so that their rounding
// neither grows with the number of transfers nor depends on their order: the verdict is the same
// for any order of the transfers.
// The other rules of the validators (common/overlap.hpp) do not apply: every transfer runs from
// time 0 at a constant rate, so there are no intervals of a port to sweep, no busy time beyond the
// rates' sum (checked as a sum), and no start to bound by a horizon.
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

// kTimeResolution of the total initial load: below it no amount of a schedule of the instance can
// be told from rounding (the solvers' deltas are differences of loads near it).
double resolution(const Instance& instance);

// The verdict on `schedule` and its recomputed makespan, comparing the claims `stated` names.
// InputError (path relative to the instance object) when the instance breaks the model
// (validate_instance).
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated = {});

}  // namespace redist::dlt
