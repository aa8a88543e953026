// The hindsight optimum of docs/balance.md (`--policy oracle`): the set of rebalance points that
// minimises the total time of a trace, knowing every s(t) in advance, with the same targets rule as
// every policy (after iteration k the counts become the balanced targets of s(k - 1)).
//
// Dynamic programme over the last rebalance point. After a rebalance after iteration j the counts
// are B_j = balanced_targets(N, s(j - 1)), whatever happened before (B_0 = the initial loads), so
// best[k] = min over j < k of best[j] + sum_{t=j}^{k-1} T_t(B_j) + makespan(B_j -> B_k), and the
// optimum is min over j of best[j] + sum_{t=j}^{K-1} T_t(B_j). The programme runs forward: each
// j, once final, sums its segment term by term (all terms >= 0, so no cancellation: a difference
// of prefix sums would lose every term after a 1e144 one) and offers it to every later k; O(K^2)
// additions after the O(K p) times per distinct distribution. Makespans come from the ring
// planner `auto`, one plan per distinct (B_j, B_k) pair (equal targets share plans, so
// piecewise-constant speeds plan few).
// Guarantee: the minimum over all 2^(K-1) subsets of rebalance points, up to the rounding of sums
// of K terms (tested against brute force for K <= 8, times spanning 300 orders of magnitude
// included). A rebalance between equal distributions is never taken; among equal totals the
// earliest last rebalance point wins.
// Complexity: O(K^2 p + P), P the planning time of at most K (K - 1) / 2 plans.
// Limits: K <= kMaxOracleIterations and K^2 p <= kMaxOracleWork (model.hpp).
//
// With a `cost` function in place of the planned makespan (the measured or simulated duration of
// each redistribution, docs/ring-sim.md), the same programme gives the points that minimise the
// total for those costs; the result's times are then still the model's (simulate_points).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "redist/balance/simulate.hpp"

namespace redist::balance {

SimulationResult hindsight_optimum(const Trace& trace);

// The time a redistribution from one distribution to another takes (>= 0, finite).
using RedistributionCost =
    std::function<double(const std::vector<std::int64_t>&, const std::vector<std::int64_t>&)>;
SimulationResult hindsight_optimum(const Trace& trace, const RedistributionCost& cost);

}  // namespace redist::balance
