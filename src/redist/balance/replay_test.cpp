#include "redist/balance/replay.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "redist/balance/policy.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"
#include "redist/testing/policy_step.hpp"

namespace redist::balance {
namespace {

using testkit::FakeStep;

TraceSpec random_spec(std::uint64_t seed) {
  TraceSpec spec;
  spec.drift = static_cast<Drift>(seed % 3);
  spec.processors = 2 + seed % 11;
  spec.iterations = 10 + static_cast<std::int64_t>(seed * 7 % 51);
  spec.items = 50 + static_cast<std::int64_t>(seed * 37 % 3000);
  spec.ratio = std::pow(10.0, static_cast<double>(seed % 5) - 2);
  spec.seed = seed;
  return spec;
}

// Runs `policy` over random traces as the simulator does and checks, at every decision, the
// rules it shares with cost-benefit: it rebalances only when gain x remaining > margin x
// makespan, never predicting more than gain x remaining; with `rent`, only when the imbalance
// paid since the last rebalance is at least kReplayRent x makespan. Returns the rebalances.
int checked_rebalances(const std::string& name, double margin, bool rent) {
  int rebalances = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Trace trace = random_trace(random_spec(seed));
    const auto policy = make_policy(name, trace.iterations());
    std::vector<std::int64_t> counts = trace.initial_loads;
    double paid = 0.0;
    for (std::int64_t t = 0; t + 1 < trace.iterations(); ++t) {
      const std::vector<double>& speeds = trace.speeds[static_cast<std::size_t>(t)];
      std::vector<std::int64_t> targets = balanced_targets(trace.items(), speeds);
      const std::vector<double> loads = as_loads(counts), target_loads = as_loads(targets);
      Step step;
      step.after_iteration = t + 1;
      step.iterations = trace.iterations();
      step.loads = &loads;
      step.speeds = &speeds;
      step.targets = &target_loads;
      step.iteration_time = iteration_time(counts, speeds);
      step.balanced_time = iteration_time(targets, speeds);
      step.bound_time = balanced_time_bound(trace.items(), speeds);
      const double makespan = redistribution_makespan(trace.ring, counts, targets);
      step.plan_makespan = [&] { return makespan; };
      const double gain = step.iteration_time - step.balanced_time;
      paid += std::max(gain, 0.0);
      const Decision d = policy->decide(step);
      if (!d.rebalance) continue;
      ++rebalances;
      const double at_most = gain * static_cast<double>(step.remaining());
      EXPECT_GT(at_most, margin * makespan) << name << " " << seed << " " << t;
      if (rent) {
        EXPECT_GE(paid, kReplayRent * makespan) << seed << " " << t;
      }
      EXPECT_LE(d.predicted_saving, at_most * (1 + 1e-12)) << name << " " << seed << " " << t;
      policy->rebalanced(step);
      counts = targets;
      paid = 0.0;
    }
  }
  return rebalances;
}

TEST(Replay, RebalancesOnlyWhereCostBenefitWouldAndAfterPayingPartOfThePrice) {
  EXPECT_GT(checked_rebalances("replay", 1.0, true), 300);  // the property was exercised
}

TEST(HedgedReplay, RebalancesOnlyWhereCostBenefitWouldWithTwiceTheMakespan) {
  EXPECT_GT(checked_rebalances("hedged-replay", kHedgedReplayMargin, false), 200);
}

TEST(Replay, SimulationsAreDeterministicAndNoBetterThanTheOracle) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Trace trace = random_trace(random_spec(seed));
    const double oracle = simulate(trace, "oracle").total_time;
    for (const char* policy : {"replay", "hedged-replay"}) {
      const SimulationResult a = simulate(trace, policy);
      const SimulationResult b = simulate(trace, policy);
      EXPECT_EQ(a.total_time, b.total_time) << policy << " " << seed;
      EXPECT_EQ(a.rebalances.size(), b.rebalances.size()) << policy << " " << seed;
      EXPECT_GE(a.total_time, oracle * (1 - 1e-9)) << policy << " " << seed;
    }
  }
}

// A first distribution made blind (equal loads on speeds 1 and 3): gain 25 per iteration for the
// 99 iterations left. replay trusts the speeds for one iteration (their age) and waits;
// hedged-replay takes them to last and rebalances at once when 25 x 99 > 2 x makespan.
TEST(HedgedReplay, CorrectsABlindFirstDistributionAtOnce) {
  FakeStep blind{{50, 50}, {1, 3}, {25, 75}};  // T = 50, T_bal = 25
  const Decision hedged = make_hedged_replay()->decide(blind.make(1, 100, 50, 25, 25, 100));
  EXPECT_TRUE(hedged.rebalance) << hedged.reason;
  EXPECT_DOUBLE_EQ(hedged.predicted_saving, 25.0 * 99);
  EXPECT_EQ(hedged.reason, "saving over 99 iterations 2475 > 2 x makespan 100");
  const Decision plain = make_replay()->decide(blind.make(1, 100, 50, 25, 25, 100));
  EXPECT_FALSE(plain.rebalance);
  EXPECT_DOUBLE_EQ(plain.predicted_saving, 25.0);
  EXPECT_EQ(plain.reason, "saving over 1 iterations 25 <= makespan 100");
}

// Between the makespan and twice it, cost-benefit and hedged-replay disagree.
TEST(HedgedReplay, AsksForASavingOfTwiceTheMakespan) {
  FakeStep blind{{50, 50}, {1, 3}, {25, 75}};
  const Decision d = make_hedged_replay()->decide(blind.make(1, 100, 50, 25, 25, 2000));
  EXPECT_FALSE(d.rebalance);
  EXPECT_EQ(d.reason, "saving over 99 iterations 2475 <= 2 x makespan 2000");
  EXPECT_TRUE(
      make_policy("cost-benefit", 100)->decide(blind.make(1, 100, 50, 25, 25, 2000)).rebalance);
}

// Once a speed has changed, hedged-replay judges as replay does: the new speeds are trusted for
// their age, and part of the price must have been paid in waiting.
TEST(HedgedReplay, AfterASpeedChangeTrustsTheSpeedsForTheirAge) {
  const auto policy = make_hedged_replay();
  FakeStep balanced{{25, 75}, {1, 3}, {25, 75}};  // T = T_bal = 25
  EXPECT_FALSE(policy->decide(balanced.make(1, 100, 25, 25, 25, 100)).rebalance);
  FakeStep swapped{{25, 75}, {3, 1}, {75, 25}};  // T = 75, T_bal = 25
  const Decision d = policy->decide(swapped.make(2, 100, 75, 25, 25, 100));
  EXPECT_FALSE(d.rebalance);
  EXPECT_DOUBLE_EQ(d.predicted_saving, 50.0);  // gain 75 - 25 over an age of 1
  EXPECT_EQ(policy->name(), "hedged-replay");
}

}  // namespace
}  // namespace redist::balance
