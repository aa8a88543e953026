// redist/star.hpp: scheduling and redistributing tasks on a star (master-worker) platform under
// the one-port model (STAR; docs/star.md, docs/formats.md). Divisible load is redist/dlt.hpp.
//
// Typed API (namespace redist::star):
//   Instance, Schedule, Transfer           the model (redist/star/model.hpp)
//   plan(instance, options)                a schedule by bba | mbbsa | mbbsa-lazy | rbsa | exact |
//                                          best (the default: the best of the paper's heuristics)
//   check(instance, schedule)              the independent validator's verdict
//   order(instance)                        Theorem 1's optimal order when computation is neglected
// JSON entry points: exactly what `redist star plan|check|order` print, for the documents they
// read; options hold the command line's option names ({"algorithm": "exact"}).
// The plan entry point also takes {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`c[2]`; an OptionError names the
// option: `algorithm`), the JSON entry points as the command line does (`$.star.c[2]`,
// `--algorithm`).
//
// Example:
//   redist::star::Instance platform;
//   platform.c = {1, 2, 1};
//   platform.w = {3, 3, 5};
//   platform.loads = {6, 0, 1};
//   const redist::star::Schedule s = redist::star::plan(platform);  // s.makespan, s.lower_bound
//   assert(redist::star::check(platform, s).valid);
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/star/model.hpp"
#include "redist/star/order.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"

namespace redist::star {

// Declared in the headers above, the typed functions:
//   Schedule plan(const Instance&, const PlanOptions& = {})   (planner.hpp) the schedule with
//       makespan, lower_bound (star_lower_bound: computation, the master's ports, each receiver's
//       capacity; the makespan when proven optimal) and optimal with its proof (the bound, a
//       theorem, or exact's search on small instances); OptionError at "algorithm" for an unknown
//       name, InputError for an invalid instance or one beyond the limits (kMaxPlannedTasks).
//   CheckResult check(const Instance&, const Schedule&)       (validate.hpp) whether the schedule
//       respects the one-port model and computes every task, by code that shares nothing with
//       the planners, and its recomputed makespan.
//   Schedule order(const OrderInstance&)                     (order.hpp) STAR Theorem 1.

// `redist star plan`: instance {"star": {"c", "w", "loads"}}, options {"algorithm"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist star check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);
// `redist star order`: instance {"star": {"c", "delta"}}.
std::string order_json(std::string_view instance);

}  // namespace redist::star
