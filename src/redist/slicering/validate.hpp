// The independent checker of SliceRing solutions (docs/formats.md, docs/slicering.md, `redist
// slicering check`).
//
// Shares no code with the planners: it recomputes SLICE Eq. 1 from the cluster, the ring and the
// shares alone. Valid when: the ring is non-empty with distinct processors in [0, p); there is one
// finite share >= 0 per member; the shares sum to 1 within kTimeTolerance; and the claims, when
// stated, hold: t_step and makespan (its other name) are the recomputed
// max_i alpha_i W w_i + H (c[i][pred] + c[i][succ]) (same_time), lower_bound is not above it, and
// `optimal: true` only when it meets the lower bound (at_most).
// The shares' sum is Neumaier-compensated and compared with 1 at kTimeTolerance, a tolerance of
// the value compared; T_step is recomputed exactly as Eq. 1 forms it, so that it is the same for
// the ring rotated or reversed (each member keeps its two neighbours). The rules the validators of
// the timed families share (common/overlap.hpp: allowances of the times compared, an exact sweep
// of a port's intervals, busy time within a port's span, a horizon) do not apply: a solution has
// no intervals on a port and no start times, only the one period T_step, compared with the claims.
// Complexity: O(p + q). An invalid verdict's entries (CheckResult::entries) are ring positions:
// the member that is no processor, the two places of a processor named twice, or the member whose
// share is not one.
#pragma once

#include <optional>
#include <vector>

#include "redist/common/check.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

// What a solution states besides its ring and shares; a document read from a file may state
// fewer (std::nullopt: not compared).
struct Claims {
  std::optional<double> t_step, makespan, lower_bound;
  std::optional<bool> optimal;
};

// The verdict on a ring and shares as a document gives them (`ring` entries are signed so that a
// document naming processor -1 is reported, not wrapped); makespan: T_step, recomputed.
CheckResult check(const Cluster& cluster, const std::vector<long long>& ring,
                  const std::vector<double>& alpha, const Claims& claims);

// The verdict on a planner's solution: every claim (makespan, lower_bound when > 0, optimal) is
// compared.
CheckResult check(const Cluster& cluster, const Solution& solution);

}  // namespace redist::slicering
