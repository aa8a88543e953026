// redist/lau.hpp: Lau's load distribution schedules on a ring, single- and multi-send (LAU;
// docs/lau.md, docs/formats.md).
//
// Typed API (namespace redist::lau):
//   Instance, Plan, Mode, Time             the model (redist/lau/model.hpp); Time is empty when a
//                                          schedule deadlocks
//   plan(instance, options)                flows by one of linear | traffic | optimal-window |
//                                          optimal (the default, proven optimal in its mode)
//                                          (redist/lau/planner.hpp)
//   evaluate(instance, flows)              both execution times of given flows
//                                          (redist/lau/evaluate.hpp)
//   check(instance, plan)                  whether the plan's flows form a valid schedule in its
//                                          mode, its claims hold, and its time
//                                          (redist/lau/validate.hpp)
// JSON entry points: exactly what `redist lau plan|check|eval` print, for the documents they read;
// options hold the command line's option names ({"algorithm": "traffic", "mode": "multi"}).
// The plan entry point also takes {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`loads[2]`, `flows`; an OptionError
// names the option: `mode`), the JSON entry points as the command line does (`$.lau.loads[2]`,
// `--mode`).
//
// Example:
//   redist::lau::Instance ring{{7, 0, 2, 3}, {3, 3, 3, 3}};
//   redist::lau::PlanOptions options;
//   options.mode = redist::lau::Mode::multi;
//   const redist::lau::Plan p = redist::lau::plan(ring, options);
//   // p.flows, p.t_multi, p.makespan (its time in p.mode), p.lower_bound, p.optimal
//   assert(redist::lau::check(ring, p).valid);
//   std::string json = redist::lau::plan_json(R"({"lau": {"loads": [4, 0]}})");
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/lau/evaluate.hpp"
#include "redist/lau/model.hpp"
#include "redist/lau/planner.hpp"
#include "redist/lau/validate.hpp"

namespace redist::lau {

// `redist lau plan`: instance {"lau": {"loads", "targets"?}}, options {"algorithm", "mode"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist lau check`: a plan as `lau plan` prints it ({"flows", "mode"?, ...}); the verdict
// {"valid": true, "makespan": t} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);
// `redist lau eval`: instance {"lau": {"loads", "targets"?, "flows"}}; both times, traffic, h.
std::string eval_json(std::string_view instance);

}  // namespace redist::lau
