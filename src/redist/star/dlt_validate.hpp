// The independent validator of divisible-load schedules (STAR §5, `redist dlt check`).
//
// Shares no code with the solvers of dlt.hpp: it re-derives everything from the instance and the
// transfers. Model (the switch model of STAR §5.1): every transfer runs at its constant `rate`
// from time 0, so it ends at amount / rate; worker i's link carries at most b_i, in each
// direction; a worker computes at speed s_i and may compute received load as it arrives, so it
// finishes by max((alpha_i - sent_i + received_i) / s_i, end of its last reception). With
// tolerances of 1e-9 relative (loads: of the total initial load; rates: of b_i; times: of the
// recomputed makespan) it checks that
//  - every transfer names two distinct workers in [0, m), an amount >= 0 and a rate >= 0, and a
//    rate > 0 when the amount is > 0;
//  - no worker both sends and receives (senders and receivers are disjoint, as in the paper);
//  - a worker sends at most the load it holds: sent_i <= alpha_i;
//  - the rates of a worker's transfers sum to at most b_i;
//  - `makespan` (when given) equals the recomputed makespan, the latest end of a transfer or of
//    a computation, and `delta` (when given) has m entries equal to sent_i - received_i.
// Complexity: O(m + n) for n transfers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "redist/common/check.hpp"

#include "redist/star/dlt.hpp"

namespace redist::star {

struct DltClaimedTransfer {
  std::int64_t from = 0, to = 0;
  double amount = 0;
  double rate = 0;
};

// A schedule as read from a file: only what it claims.
struct DltClaimedSchedule {
  std::optional<double> makespan;            // absent: not compared
  std::optional<std::vector<double>> delta;  // absent: not compared
  std::vector<DltClaimedTransfer> transfers;
};

using DltValidationResult = CheckResult;

// The instance must have passed validate_dlt_instance.
DltValidationResult validate_dlt_schedule(const DltInstance& instance,
                                          const DltClaimedSchedule& schedule);

}  // namespace redist::star
