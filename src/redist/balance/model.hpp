// The model of an iterative application on a ring (docs/balance.md, after RRV04 §8).
//
// p >= 2 processors on a ring with the link costs of the ring family (redist/ring/model.hpp). The
// application runs K iterations t = 0..K-1, bulk synchronous. Processor i holds n_i items and, in
// iteration t, processes s_i(t) > 0 items per time unit, so iteration t takes
// T_t = max_i n_i / s_i(t). After iteration t <= K-2 a policy may rebalance: the counts become
// the balanced targets (targets.hpp) of the speeds just measured, s(t), at the cost of the
// makespan of the ring planner `auto` from the current counts to those targets.
// Total = sum of T_t + sum of the makespans. Lower bound of any run: sum_t N / sum_i s_i(t).
//
// Iterations are counted from 1 in policy names and outputs ("after iteration k" is after
// t = k - 1), as RRV04 §8 does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/ring/model.hpp"

namespace redist::balance {

// Size limits (refused up front with InputError naming the field; docs/balance.md).
inline constexpr std::size_t kMaxProcessors = 1'000'000;    // p
inline constexpr std::int64_t kMaxIterations = 1'000'000;   // K
inline constexpr std::size_t kMaxSpeedValues = 20'000'000;  // K * p
// The hindsight optimum plans up to K (K - 1) / 2 redistributions of p processors.
inline constexpr std::int64_t kMaxOracleIterations = 2'000;  // K for `oracle`
inline constexpr double kMaxOracleWork = 2e8;                // K * K * p for `oracle`

// The ring's links: cost_next[i] is the time to send one item from i to succ(i), cost_prev[i]
// from i to pred(i) (bidirectional rings only), as in ring::Instance.
struct RingCosts {
  bool bidirectional = true;
  std::vector<double> cost_next;
  std::vector<double> cost_prev;
  std::size_t size() const { return cost_next.size(); }
};

// One run of the application: its ring, its speeds s(t) (K rows of p speeds) and its counts
// before iteration 0.
struct Trace {
  RingCosts ring;
  std::vector<std::vector<double>> speeds;  // speeds[t][i] = s_i(t)
  std::vector<std::int64_t> initial_loads;  // n_i before iteration 0
  std::int64_t iterations() const { return static_cast<std::int64_t>(speeds.size()); }
  std::int64_t items() const;  // N = sum of initial_loads
};

// Throws InputError naming the field ("ring.cost_next[2]", "speeds[3]",
// "speeds[3][1]", "loads[0]", relative to the balance object) when: p < 2, sizes disagree, a cost
// or speed is not finite and > 0, a count is negative, the counts overflow 64 bits, K < 1, or a
// limit above is exceeded; and when the model's times could leave the double range (N / s_min or
// the ring's redistribution bound, ring::require_finite_times).
void validate_ring_costs(const RingCosts& ring);
void validate_trace(const Trace& trace);

// The ring instance that moves `loads` to `targets` on `ring`.
ring::Instance redistribution_instance(const RingCosts& ring, std::vector<std::int64_t> loads,
                                       std::vector<std::int64_t> targets);

// Makespan of `redist ring plan --algorithm auto` from loads to targets (0 when they are equal).
double redistribution_makespan(const RingCosts& ring, const std::vector<std::int64_t>& loads,
                               const std::vector<std::int64_t>& targets);

// sum over t of N / sum_i s_i(t).
double total_lower_bound(const Trace& trace);

}  // namespace redist::balance
