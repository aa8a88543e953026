// JSON reading and writing of the rebalancing family (docs/balance.md, docs/formats.md
// "Rebalancing"). The JSON entry points of redist/balance.hpp (advise_json, simulate_json,
// plan_json) are implemented in balance_json.cpp on top of these.
#pragma once

#include "redist/balance/advise.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/io/json.hpp"

namespace redist::io {

// {"balance": {"ring": {"bidirectional", "cost_next", "cost_prev"}, "loads", "speeds",
//  "remaining_iterations"}}. InputError with the JSONPath of the first problem.
balance::AdviseInput read_advise_instance(const Json& document);

// {"balance": {"ring": {...}, "speeds": [[...], ... K rows], "loads": [...] | "items": N}}; with
// "items" the initial loads are the balanced targets of N items for the first row of speeds.
balance::Trace read_balance_trace(const Json& document);

OrderedJson write_advice(const balance::Advice& advice);
OrderedJson write_simulation(const balance::SimulationResult& result);

}  // namespace redist::io
