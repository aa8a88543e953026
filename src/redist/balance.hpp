// redist/balance.hpp: rebalancing an iterative application on a ring (SPEC §7).
//
// Typed functions:
//   balanced_targets, iteration_time         redist/balance/targets.hpp
//   Trace, RingCosts, limits, lower bound    redist/balance/model.hpp
//   make_policy, Policy, Step, Decision      redist/balance/policy.hpp
//   simulate, simulate_points                redist/balance/simulate.hpp
//   hindsight_optimum (`oracle`)             redist/balance/oracle.hpp
//   advise                                   redist/balance/advise.hpp
// JSON entry points (below): exactly what `redist balance advise|simulate` print.
#pragma once

#include <string>
#include <string_view>

#include "redist/balance/advise.hpp"
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
// `options` is {"policy": NAME} (required).
std::string simulate_json(std::string_view instance, std::string_view options);

// The family's plan: the advice (same as advise_json).
std::string plan_json(std::string_view instance, std::string_view options = "{}");

}  // namespace redist::balance
