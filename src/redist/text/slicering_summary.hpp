// The readable summary of a SliceRing solution (SLICE; `redist slicering plan --format text`):
// the cluster, the algorithm, the time of one iteration (T_step, SLICE Eq. 1), the lower bound
// and whether the solution is proven optimal, the validator's verdict, and the ring in order:
// each member's cycle-time, share, computation and communication time, and the link costs to its
// successor; the processors left out. Complexity: O(p + q).
#pragma once

#include <string>
#include <string_view>

#include "redist/slicering/model.hpp"

namespace redist::text {

std::string slicering_summary(const slicering::Cluster& cluster,
                              const slicering::Solution& solution, std::string_view heading,
                              std::string_view source);

}  // namespace redist::text
