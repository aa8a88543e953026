// `redist slicering plan --algorithm NAME [--q Q]` (docs/slicering.md): dispatch to the SLICE
// planners. Names: auto (the default: exact when fast, else the better of greedy and tsp, always
// with a lower bound; auto.hpp), homogeneous (Proposition 1), greedy (§6.2), tsp (§6.1), exact
// (Held-Karp + branch and bound). Unknown names and a q outside [1, p] are InputErrors at
// --algorithm / --q; so is a cluster outside the double range (check_cluster_range) or above an
// algorithm's size limit.
#pragma once

#include <optional>
#include <string>

#include "redist/slicering/model.hpp"

namespace redist::slicering {

Solution plan_slicering(const Cluster& cluster, const std::string& algorithm,
                        std::optional<std::size_t> q = std::nullopt);

}  // namespace redist::slicering
