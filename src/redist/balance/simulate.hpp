// The model simulator of docs/balance.md: runs a trace (model.hpp) under a policy and totals the
// time. Each rebalance is planned with the ring planner `auto`; plans are cached by (counts,
// targets), so a simulation plans each distinct redistribution once. Complexity: O(K p) for the
// iterations plus one plan per distinct rebalance the policy considers (cost-benefit considers one
// per iteration whose time exceeds the balanced one).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "redist/balance/model.hpp"

namespace redist::balance {

struct Rebalance {
  std::int64_t after_iteration = 0;  // k (1-based)
  std::vector<std::int64_t> targets;
  double makespan = 0.0;
};

struct SimulationResult {
  std::string policy;  // the name as given
  std::int64_t iterations = 0;
  double total_time = 0.0;
  double compute_time = 0.0;            // sum of T_t
  double redistribution_time = 0.0;     // sum of makespans
  double lower_bound = 0.0;             // total_lower_bound(trace)
  std::vector<double> iteration_times;  // T_t, t = 0..K-1
  std::vector<Rebalance> rebalances;
};

// Runs `policy` (make_policy names, or "oracle": the hindsight optimum of oracle.hpp) on the
// trace. Validates the trace (validate_trace) and the policy name (InputError, "--policy").
SimulationResult simulate(const Trace& trace, std::string_view policy);

// Total of a run that rebalances after exactly the iterations in `points` (1-based, increasing,
// each in 1..K-1): what simulate gives for `at:` with that list. Used by the oracle's tests.
SimulationResult simulate_points(const Trace& trace, const std::vector<std::int64_t>& points);

}  // namespace redist::balance
