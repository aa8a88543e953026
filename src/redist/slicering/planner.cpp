#include "redist/slicering/planner.hpp"

#include <chrono>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/slicering/auto.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/greedy.hpp"
#include "redist/slicering/homogeneous.hpp"
#include "redist/slicering/tsp.hpp"

namespace redist::slicering {

const std::vector<AlgorithmName>& slicering_algorithm_names() {
  static const std::vector<AlgorithmName> names = {
      {"auto", fmt::format("exact when p <= {}, else the better of greedy and tsp, with a lower "
                           "bound (the default)",
                           kAutoExactMaxProcessors)},
      {"homogeneous", "SLICE Proposition 1: optimal on homogeneous networks only"},
      {"greedy", "SLICE §6.2: grows a ring one processor at a time"},
      {"tsp", "SLICE §6.1: all processors, a short tour by local search"},
      {"exact",
       fmt::format("Held-Karp + branch and bound: proven optimum, p <= {}", kExactMaxProcessors)}};
  return names;
}

namespace {

// "auto, homogeneous, greedy, tsp or exact".
std::string expected_names() {
  const auto& names = slicering_algorithm_names();
  std::string text;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k > 0) text += k + 1 == names.size() ? " or " : ", ";
    text += names[k].name;
  }
  return text;
}

Solution dispatch(const Cluster& cluster, const std::string& algorithm,
                  std::optional<std::size_t> q, const Deadline& time_limit) {
  if (algorithm == "homogeneous") return plan_homogeneous(cluster, q);
  if (algorithm == "greedy") return plan_greedy(cluster, q);
  if (algorithm == "tsp") return plan_tsp(cluster, q);
  if (algorithm == "exact") return plan_exact(cluster, q, time_limit);
  if (algorithm == "auto") return plan_auto(cluster, q, time_limit);
  throw OptionError(
      fmt::format("unknown algorithm '{}' (expected {})", algorithm, expected_names()),
      "algorithm");
}

}  // namespace

Solution plan(const Cluster& cluster, const PlanOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const Deadline time_limit(options.time_limit);
  check_cluster_range(cluster);
  const std::optional<std::size_t> q = options.ring_size;
  if (q && (*q < 1 || *q > cluster.size())) {
    throw OptionError(fmt::format("ring size must be in [1, {}], got {}", cluster.size(), *q), "q");
  }
  Solution s = dispatch(cluster, options.algorithm, q, time_limit);
  if (options.time_limit && options.algorithm != "exact" && options.algorithm != "auto") {
    s.notes.push_back(time_limit_ignored(options.algorithm));
  }
  s.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return s;
}

}  // namespace redist::slicering
