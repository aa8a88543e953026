// redist/balance.hpp: rebalancing an iterative application when it pays: when to rebalance
// (policies) for any partitioned application (RebalanceDecider), and on a heterogeneous ring the
// balanced targets, the model simulator and the hindsight optimum (RRV04 §8; docs/balance.md,
// docs/formats.md, docs/zoltan.md).
//
// Typed API (namespace redist::balance):
//   balanced_targets, iteration_time         redist/balance/targets.hpp
//   Trace, RingCosts, limits, lower bound    redist/balance/model.hpp
//   make_policy, Policy, Step, Decision      redist/balance/policy.hpp
//   RebalanceDecider (any partitioned app)   redist/balance/decider.hpp: rebalance now?
//   simulate(trace, policy)                  redist/balance/simulate.hpp: totals, rebalances
//   hindsight_optimum (`oracle`)             redist/balance/oracle.hpp
//   best_rebalance_points (any application)  redist/balance/hindsight.hpp
//   advise(input)                            redist/balance/advise.hpp: rebalance now? to what?
// JSON entry points: exactly what `redist balance advise|simulate` print (the family's plan is
// the advice; Python's `balance.plan` names it so, as in every family). There is no check: the
// advised redistribution is a ring schedule (redist/ring.hpp). The advise entry point also takes
// {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`speeds[2]`; an OptionError names the
// option: `policy`), the JSON entry points as the command line does (`$.balance.speeds[2]`,
// `--policy`).
//
// Example:
//   redist::balance::AdviseInput in;
//   in.ring.cost_next = {1, 1, 1, 1};
//   in.loads = {400, 100, 250, 250};
//   in.speeds = {1, 3, 2, 2};
//   in.remaining_iterations = 50;
//   const redist::balance::Advice a = redist::balance::advise(in);  // a.rebalance, a.targets
//   std::string json = redist::balance::simulate_json(trace_text, R"({"policy": "replay"})");
#pragma once

#include <string>
#include <string_view>

#include "redist/balance/advise.hpp"
#include "redist/balance/decider.hpp"
#include "redist/balance/hindsight.hpp"
#include "redist/balance/model.hpp"
#include "redist/balance/oracle.hpp"
#include "redist/balance/policy.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"

namespace redist::balance {

// `redist balance advise`: `instance` is the document {"balance": {"ring", "loads", "speeds",
// "remaining_iterations"}}; `options` accepts no option yet ("{}"). Returns the printed JSON.
// Bad input throws redist::InputError whose what() is the text of the `error:` line.
std::string advise_json(std::string_view instance, std::string_view options = "{}");

// `redist balance simulate`: `instance` is {"balance": {"ring", "speeds", "loads" | "items"}};
// `options` is {"policy": NAME} (required; OptionError at "policy" without it).
std::string simulate_json(std::string_view instance, std::string_view options);

}  // namespace redist::balance
