#include "redist/slicering/planner.hpp"

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/slicering/auto.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/greedy.hpp"
#include "redist/slicering/homogeneous.hpp"
#include "redist/slicering/tsp.hpp"

namespace redist::slicering {

Solution plan_slicering(const Cluster& cluster, const std::string& algorithm,
                        std::optional<std::size_t> q) {
  check_cluster_range(cluster);
  if (q && (*q < 1 || *q > cluster.size())) {
    throw OptionError(fmt::format("ring size must be in [1, {}], got {}", cluster.size(), *q), "q");
  }
  if (algorithm == "homogeneous") return plan_homogeneous(cluster, q);
  if (algorithm == "greedy") return plan_greedy(cluster, q);
  if (algorithm == "tsp") return plan_tsp(cluster, q);
  if (algorithm == "exact") return plan_exact(cluster, q);
  if (algorithm == "auto") return plan_auto(cluster, q);
  throw OptionError(
      fmt::format("unknown algorithm '{}' (expected auto, homogeneous, greedy, tsp or exact)",
                  algorithm),
      "algorithm");
}

}  // namespace redist::slicering
