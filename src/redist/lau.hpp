// redist/lau.hpp: Lau's load distribution schedules on a ring, single- and multi-send (LAU;
// docs/lau.md, docs/formats.md).
//
// Typed API (namespace redist::lau):
//   Instance, Plan, Mode, Time             the model (redist/lau/model.hpp); Time is empty when a
//                                          schedule deadlocks
//   plan(instance, options)                flows by one of linear | traffic | optimal-window |
//                                          optimal (the default, proven optimal in its mode)
//   evaluate(instance, flows)              both execution times of given flows
//   check(instance, flows, mode)           whether the flows form a valid schedule, and its time
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
//   // p.flows, p.makespan (= p.t_multi), p.lower_bound, p.optimal
//   std::string json = redist::lau::plan_json(R"({"lau": {"loads": [4, 0]}})");
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/lau/evaluate.hpp"
#include "redist/lau/model.hpp"
#include "redist/lau/planner.hpp"

namespace redist::lau {

struct PlanOptions {
  std::string algorithm = "optimal";  // linear | traffic | optimal-window | optimal
  Mode mode = Mode::single;           // the send mode planned for and reported in makespan
};

// The plan with makespan (its time in options.mode), lower_bound (the optimum in that mode,
// computed by the optimal planner, O(n log n)) and optimal (makespan == lower_bound). OptionError
// at "algorithm" for an unknown name; InputError for an invalid instance.
Plan plan(const Instance& instance, const PlanOptions& options = {});

// Both execution times of flows that balance every node (LAU §3-4).
inline Evaluation evaluate(const Instance& instance, const std::vector<std::int64_t>& flows) {
  return evaluate_flows(instance, flows);
}

// Valid when the flows have one entry per node, balance every node and do not deadlock in `mode`;
// makespan is then the time in that mode.
CheckResult check(const Instance& instance, const std::vector<std::int64_t>& flows, Mode mode);

// `redist lau plan`: instance {"lau": {"loads", "targets"?}}, options {"algorithm", "mode"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist lau check`: a plan as `lau plan` prints it ({"flows", "mode"?, ...}); the verdict
// {"valid": true, "makespan": t} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);
// `redist lau eval`: instance {"lau": {"loads", "targets"?, "flows"}}; both times, traffic, h.
std::string eval_json(std::string_view instance);

}  // namespace redist::lau
