// redist/slicering.hpp: static load balancing of an iterative computation on a heterogeneous
// cluster: which processors form the ring, in which order, with which shares (SLICE; docs/
// slicering.md, docs/formats.md).
//
// Typed API (namespace redist::slicering):
//   Cluster, Solution                      the model (redist/slicering/model.hpp); a Solution
//                                          is a PlanClaims whose makespan is T_step, the time of
//                                          one iteration
//   plan(cluster, options)                 a ring and shares by auto (the default) |
//                                          homogeneous | greedy | tsp | exact, optionally of a
//                                          forced size
//   check(cluster, solution)               the independent checker's verdict (CheckResult)
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

// plan(cluster, options), PlanOptions, slicering_algorithm_names(): redist/slicering/planner.hpp.
// check(cluster, solution): redist/slicering/validate.hpp.

// `redist slicering plan`: instance {"cluster": {"w", "c", "W", "H"}}, options {"algorithm",
// "q"} (q an integer).
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist slicering check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view solution);

}  // namespace redist::slicering
