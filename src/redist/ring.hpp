// redist/ring.hpp: redistributing identical items on a processor ring under the one-port model
// (RRV04 and RRV04-short; docs/ring-algorithms.md, docs/formats.md).
//
// Typed API (namespace redist::ring):
//   Instance, Schedule, Run, Direction     the model (redist/ring/model.hpp); a Schedule is a
//                                          PlanClaims (makespan, lower_bound and its bound_terms,
//                                          optimal and its proof) with flows and runs
//   plan(instance, options)                a schedule by one of ring_algorithm_names(); `auto`
//                                          (the default) picks the best that applies
//   check(instance, schedule)              the independent validator's verdict (CheckResult)
//   bounds(instance)                       every lower bound of the papers, and the best
// JSON entry points: exactly what `redist ring plan|check|bound` print, for the documents they
// read; options hold the command line's option names ({"algorithm": "exact", "solver": "lp"}).
// The plan entry point also takes {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`loads[2]`; an OptionError names the
// option: `algorithm`), the JSON entry points as the command line does (`$.ring.loads[2]`,
// `--algorithm`).
//
// Example:
//   redist::ring::Instance ring;
//   ring.bidirectional = true;
//   ring.loads = {5, 1, 3, 7};
//   ring.targets = {4, 4, 4, 4};
//   ring.cost_next = {1, 2, 1, 1};
//   ring.cost_prev = {1.5, 1.5, 1.5, 1.5};
//   const redist::ring::Schedule s = redist::ring::plan(ring);  // s.makespan, s.optimal, ...
//   assert(redist::ring::check(ring, s).valid);
//   std::string json = redist::ring::plan_json(R"({"ring": {"loads": [2, 0], "targets": [1, 1],
//                                                  "cost_next": 1}})");
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/model.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/solver.hpp"
#include "redist/ring/validate.hpp"

namespace redist::ring {

// plan(instance, options), PlanOptions, ring_algorithm_names(): redist/ring/planner.hpp.
// check(instance, schedule): redist/ring/validate.hpp. bounds(instance): redist/ring/bounds.hpp.

// `redist ring plan`: instance {"ring": {...}}, options {"algorithm", "solver"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist ring check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);
// `redist ring bound`: {"lower_bound": x, "terms": {...}}.
std::string bound_json(std::string_view instance);

}  // namespace redist::ring
