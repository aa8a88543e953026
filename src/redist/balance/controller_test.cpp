#include "redist/balance/controller.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"

namespace redist::balance {
namespace {

// Runs the controller on a trace as an application would, each processor reporting its count as
// work and count / s_i(t) as time; returns the iterations after which it rebalanced.
std::vector<std::int64_t> controlled_run(const Trace& trace, const std::string& policy,
                                         bool estimate) {
  RebalanceSettings settings;
  settings.estimate_speeds = estimate;
  RebalanceController controller(trace.ring, make_policy(policy, trace.iterations()),
                                 trace.iterations(), settings);
  std::vector<std::int64_t> counts = trace.initial_loads, points;
  for (const auto& speeds : trace.speeds) {
    std::vector<double> work, seconds;
    for (std::size_t i = 0; i < speeds.size(); ++i) {
      work.push_back(static_cast<double>(counts[i]));
      seconds.push_back(static_cast<double>(counts[i]) / speeds[i]);
    }
    const RebalanceDecision d = controller.decide(counts, work, seconds);
    if (!d.rebalance) continue;
    points.push_back(d.after_iteration);
    controller.rebalanced(d);
    counts = d.targets;
  }
  return points;
}

std::vector<std::int64_t> simulated_points(const Trace& trace, const std::string& policy) {
  std::vector<std::int64_t> points;
  for (const Rebalance& r : simulate(trace, policy).rebalances) points.push_back(r.after_iteration);
  return points;
}

// With exact measurements the controller decides as the model simulator, with and without speed
// estimates, for every online policy, on random drifting traces.
TEST(RebalanceController, ExactMeasurementsDecideAsTheSimulator) {
  int rebalances = 0;
  for (std::uint64_t seed = 1; seed <= 90; ++seed) {
    TraceSpec spec;
    spec.drift = static_cast<Drift>(seed % 3);
    spec.processors = 2 + seed % 9;
    spec.iterations = 20 + static_cast<std::int64_t>(seed % 40);
    spec.items = 200 + static_cast<std::int64_t>(seed * 13 % 2000);
    spec.ratio = std::pow(10.0, static_cast<double>(seed % 4) - 1.5);
    spec.seed = seed;
    const Trace trace = random_trace(spec);
    for (const char* policy : {"every:3", "threshold:1.1", "cost-benefit", "period-rule",
                               "stable-horizon", "replay", "hedged-replay"}) {
      const std::vector<std::int64_t> want = simulated_points(trace, policy);
      rebalances += static_cast<int>(want.size());
      EXPECT_EQ(controlled_run(trace, policy, false), want) << policy << " seed " << seed;
      // Speed estimates follow exact speeds as long as at most half of the recent samples
      // change; a random walk changes them all.
      if (spec.drift != Drift::walk) {
        EXPECT_EQ(controlled_run(trace, policy, true), want) << policy << " seed " << seed;
      }
    }
  }
  EXPECT_GT(rebalances, 1000);
}

TEST(RebalanceController, IdleProcessorsAndTheLastIteration) {
  RingCosts ring{true, {1, 1, 1}, {1, 1, 1}};
  RebalanceController c(ring, make_policy("every:1", 3), 3);
  // No work at all: nothing to decide.
  const RebalanceDecision none = c.decide({0, 0, 0}, {0, 0, 0}, {0, 0, 0});
  EXPECT_FALSE(none.rebalance);
  EXPECT_TRUE(none.speeds.empty());
  // Processor 2 did no work: it gets the mean of the others' speeds (2 and 4: 3).
  const RebalanceDecision d = c.decide({4, 4, 0}, {4, 4, 0}, {2, 1, 0});
  EXPECT_EQ(d.speeds, std::vector<double>({2, 4, 3}));
  EXPECT_TRUE(d.rebalance);
  EXPECT_EQ(d.targets, balanced_targets(8, {2, 4, 3}));
  c.rebalanced(d);
  // After iteration K the answer is no, and the policy is not consulted.
  const RebalanceDecision last = c.decide(d.targets, {1, 1, 1}, {1, 1, 1});
  EXPECT_FALSE(last.rebalance);
  EXPECT_FALSE(last.consulted);
  EXPECT_EQ(c.decisions(), 3);
}

// The policy sees planned makespans scaled by the measured over the planned durations, once they
// differ by more than 5%.
TEST(RebalanceController, CostCalibrationScalesThePlannedMakespans) {
  RingCosts ring{true, {1, 1}, {1, 1}};
  RebalanceController c(ring, make_policy("cost-benefit", 100), 100);
  EXPECT_EQ(c.cost_factor(), 1.0);
  c.redistributed(10.0, 10.4);  // within 5%: as planned
  EXPECT_EQ(c.cost_factor(), 1.0);
  c.redistributed(10.0, 29.6);  // 40 / 20: twice as long
  EXPECT_DOUBLE_EQ(c.cost_factor(), 2.0);
  c.redistributed(0.0, 5.0);  // nothing planned: ignored
  c.redistributed(1.0, std::nan(""));
  EXPECT_DOUBLE_EQ(c.cost_factor(), 2.0);
  // Counts 6, 2 at speeds 1, 1: T = 6, T_bal = 4, gain 2 x 98 iterations left = 196. The plan
  // moves 2 items over a link of cost 1: makespan 2, seen as 4 (and as 200 with costs 50).
  const RebalanceDecision d = c.decide({6, 2}, {6, 2}, {6, 2});
  EXPECT_TRUE(d.rebalance);
  EXPECT_DOUBLE_EQ(d.plan_makespan, 2.0);
  EXPECT_DOUBLE_EQ(d.cost_factor, 2.0);
  RebalanceController dear(RingCosts{true, {50, 50}, {50, 50}}, make_policy("cost-benefit", 100),
                           100);
  dear.redistributed(100.0, 200.0);
  const RebalanceDecision no = dear.decide({6, 2}, {6, 2}, {6, 2});
  EXPECT_FALSE(no.rebalance);  // 196 < 100 x 2 (it would rebalance at the plan's 100)
  EXPECT_DOUBLE_EQ(no.plan_makespan, 100.0);
}

TEST(RebalanceController, RefusesSpeedsThatAreNotFinite) {
  RingCosts ring{false, {1, 1}, {}};
  RebalanceController c(ring, make_policy("never", 5), 5);
  EXPECT_THROW(c.decide({1, 1}, {1e308, 1}, {1e-308, 1}), std::runtime_error);
  EXPECT_THROW(RebalanceController(ring, nullptr, 5), std::invalid_argument);
}

}  // namespace
}  // namespace redist::balance
