#include "redist/balance/simulate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "redist/balance/oracle.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

Trace small_trace() {
  Trace t;
  t.ring = {true, {1, 1, 1, 1}, {1, 1, 1, 1}};
  t.initial_loads = {10, 10, 10, 10};
  for (int k = 0; k < 10; ++k)
    t.speeds.push_back(k < 3 ? std::vector<double>{1, 1, 1, 1} : std::vector<double>{4, 1, 1, 2});
  return t;
}

void expect_consistent(const Trace& trace, const SimulationResult& r) {
  ASSERT_EQ(r.iteration_times.size(), static_cast<std::size_t>(trace.iterations()));
  double compute = 0;
  for (double t : r.iteration_times) compute += t;
  double moves = 0;
  for (const Rebalance& b : r.rebalances) moves += b.makespan;
  EXPECT_NEAR(r.compute_time, compute, 1e-9 * compute);
  EXPECT_NEAR(r.redistribution_time, moves, 1e-9 * (moves + 1));
  EXPECT_DOUBLE_EQ(r.total_time, r.compute_time + r.redistribution_time);
  EXPECT_LE(r.lower_bound, r.compute_time * (1 + 1e-12));
  EXPECT_TRUE(std::isfinite(r.total_time));
}

TEST(Simulate, NeverSumsTheIterationTimes) {
  const Trace t = small_trace();
  const SimulationResult r = simulate(t, "never");
  EXPECT_TRUE(r.rebalances.empty());
  EXPECT_DOUBLE_EQ(r.total_time, 3 * 10 + 7 * 10);  // the slow processors hold 10 items each
  EXPECT_DOUBLE_EQ(r.lower_bound, 3 * 40 / 4.0 + 7 * 40 / 8.0);
  expect_consistent(t, r);
}

TEST(Simulate, RebalancesWhereThePolicySays) {
  const Trace t = small_trace();
  const SimulationResult r = simulate(t, "at:4,7");
  ASSERT_EQ(r.rebalances.size(), 2u);
  EXPECT_EQ(r.rebalances[0].after_iteration, 4);
  EXPECT_EQ(r.rebalances[0].targets, balanced_targets(40, {4, 1, 1, 2}));
  EXPECT_GT(r.rebalances[0].makespan, 0);
  EXPECT_EQ(r.rebalances[1].makespan, 0);  // already at the targets: nothing moves
  EXPECT_DOUBLE_EQ(r.iteration_times[4], iteration_time(r.rebalances[0].targets, {4, 1, 1, 2}));
  expect_consistent(t, r);
  const SimulationResult e = simulate(t, "every:3");
  ASSERT_EQ(e.rebalances.size(), 3u);
  EXPECT_EQ(e.rebalances[2].after_iteration, 9);
}

// cost-benefit never pays more for a redistribution than it predicted to save when the speeds
// stay constant afterwards: after its last rebalance the remaining iterations save at least the
// makespan.
TEST(Simulate, CostBenefitPaysOnlyWhatItSavesWhenSpeedsPersist) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    TraceSpec spec;
    spec.drift = Drift::steps;
    spec.iterations = 30;
    spec.processors = 2 + seed % 7;
    spec.items = 50 + static_cast<std::int64_t>(seed * 37 % 500);
    spec.ratio = std::pow(10.0, static_cast<double>(seed % 5) - 2);
    spec.seed = seed;
    Trace trace = random_trace(spec);
    // Keep the speeds of some iteration for the rest of the run.
    const std::size_t from = 5 + seed % 20;
    for (std::size_t t = from; t < trace.speeds.size(); ++t) trace.speeds[t] = trace.speeds[from];
    const SimulationResult cb = simulate(trace, "cost-benefit");
    const SimulationResult none = simulate(trace, "never");
    expect_consistent(trace, cb);
    for (const Rebalance& b : cb.rebalances) {
      if (b.after_iteration <= static_cast<std::int64_t>(from)) continue;
      // Compare with the run that skips this rebalance and every later one.
      std::vector<std::int64_t> before;
      for (const Rebalance& e : cb.rebalances)
        if (e.after_iteration < b.after_iteration) before.push_back(e.after_iteration);
      const SimulationResult skip = simulate_points(trace, before);
      std::vector<std::int64_t> with = before;
      with.push_back(b.after_iteration);
      const SimulationResult take = simulate_points(trace, with);
      EXPECT_LE(take.total_time, skip.total_time * (1 + 1e-9)) << "seed " << seed;
    }
    (void)none;
  }
}

TEST(Simulate, StartsFromGivenLoadsAndRefusesBadTraces) {
  Trace t = small_trace();
  t.speeds[3][1] = 0;
  try {
    simulate(t, "never");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "speeds[3][1]");
  }
  t = small_trace();
  t.speeds[2].pop_back();
  EXPECT_THROW(simulate(t, "never"), InputError);
  t = small_trace();
  t.initial_loads[0] = -1;
  EXPECT_THROW(simulate(t, "never"), InputError);
  t = small_trace();
  t.speeds.clear();
  EXPECT_THROW(simulate(t, "never"), InputError);
  t = small_trace();
  EXPECT_THROW(simulate(t, "at:10"), InputError);  // K = 10: the last point is 9
  t.ring.cost_prev.pop_back();
  EXPECT_THROW(simulate(t, "never"), InputError);
  t = small_trace();
  t.speeds[0][0] = 1e-308;  // items / speed overflows the double range
  t.initial_loads = {1000000000000000000, 0, 0, 0};
  EXPECT_THROW(simulate(t, "never"), InputError);
}

TEST(Simulate, ZeroItemsAndTwoProcessors) {
  Trace t;
  t.ring = {false, {2, 3}, {}};
  t.initial_loads = {0, 0};
  t.speeds = {{1, 2}, {2, 1}, {1, 1}};
  for (const char* policy : {"never", "every:1", "cost-benefit", "period-rule", "threshold:1",
                             "stable-horizon", "replay", "hedged-replay", "oracle"}) {
    const SimulationResult r = simulate(t, policy);
    EXPECT_EQ(r.total_time, 0.0) << policy;
  }
}

}  // namespace
}  // namespace redist::balance
