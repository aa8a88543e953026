// The independent checker of SliceRing solutions (docs/formats.md, docs/slicering.md, `redist
// slicering check`).
//
// Shares no code with the planners: it recomputes SLICE Eq. 1 from the cluster, the ring and the
// shares alone. Valid when: the ring is non-empty with distinct processors in [0, p); there is one
// finite share >= 0 per member; the shares sum to 1 within 1e-9; and a claimed t_step, when given,
// equals the recomputed max_i alpha_i W w_i + H (c[i][pred] + c[i][succ]) within a relative 1e-9
// (so does `makespan`, its other name).
// Complexity: O(p + q).
#pragma once

#include <optional>
#include <string>
#include <vector>
#include "redist/common/check.hpp"

#include "redist/slicering/model.hpp"

namespace redist::slicering {

using CheckResult = redist::CheckResult;  // makespan: T_step, recomputed

// What a solution document claims besides its ring and shares (each optional).
struct Claims {
  std::optional<double> t_step, makespan, lower_bound;
  std::optional<bool> optimal;
};

// `ring` entries are signed so that a document naming processor -1 is reported, not wrapped.
CheckResult check_solution(const Cluster& cluster, const std::vector<long long>& ring,
                           const std::vector<double>& alpha, std::optional<double> t_step);
// Also invalid: a makespan that differs from the recomputed T_step (relative 1e-9), a lower_bound
// above it, or `optimal: true` with T_step above the lower_bound (relative 1e-9).
CheckResult check_solution(const Cluster& cluster, const std::vector<long long>& ring,
                           const std::vector<double>& alpha, const Claims& claims);

}  // namespace redist::slicering
