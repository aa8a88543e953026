// redist/slicering.hpp: static load balancing of an iterative computation on a heterogeneous
// cluster: which processors form the ring, in which order, with which shares (SLICE; docs/
// slicering.md, docs/formats.md).
//
// Typed API (namespace redist::slicering):
//   Cluster, Solution                      the model (redist/slicering/model.hpp); a solution's
//                                          makespan is T_step, the time of one iteration
//   plan(cluster, options)                 a ring and shares by auto (the default) |
//                                          homogeneous | greedy | tsp | exact, optionally of a
//                                          forced size
//   check(cluster, solution)               the independent checker's verdict
// JSON entry points: exactly what `redist slicering plan|check` print; options {"algorithm",
// "q"}.
// The plan entry point also takes {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`c[0][1]`; an OptionError names the
// option: `q`), the JSON entry points as the command line does (`$.cluster.c[0][1]`, `--q`).
//
// Example:
//   redist::slicering::Cluster cluster;
//   cluster.w = {1, 2, 4};
//   cluster.c = {0, 1, 1, 1, 0, 1, 1, 1, 0};  // p x p, row-major
//   cluster.W = 100;
//   cluster.H = 1;
//   redist::slicering::PlanOptions options;
//   options.algorithm = "exact";
//   const redist::slicering::Solution s = redist::slicering::plan(cluster, options);
//   // s.ring, s.alpha, s.makespan, s.lower_bound, s.optimal
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/slicering/model.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"

namespace redist::slicering {

struct PlanOptions {
  std::string algorithm = "auto";        // auto | homogeneous | greedy | tsp | exact
  std::optional<std::size_t> ring_size;  // q: force the number of processors in the ring
};

// The solution with makespan (T_step), lower_bound when the algorithm proves one, and optimal
// (proven, for the problem solved: of the forced size when ring_size is given). OptionError at
// "algorithm" or "q"; InputError for a cluster outside the model's ranges or an algorithm's limit.
inline Solution plan(const Cluster& cluster, const PlanOptions& options = {}) {
  return plan_slicering(cluster, options.algorithm, options.ring_size);
}

// Recomputes T_step from the cluster, the ring and the shares alone, and compares it with the
// solution's makespan, lower bound and optimality claims.
inline CheckResult check(const Cluster& cluster, const Solution& solution) {
  const std::vector<long long> ring(solution.ring.begin(), solution.ring.end());
  return check_solution(
      cluster, ring, solution.alpha,
      Claims{std::nullopt, solution.makespan, solution.lower_bound, solution.optimal});
}

// `redist slicering plan`: instance {"cluster": {"w", "c", "W", "H"}}, options {"algorithm",
// "q"} (q an integer).
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist slicering check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view solution);

}  // namespace redist::slicering
