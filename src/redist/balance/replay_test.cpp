#include "redist/balance/replay.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"

namespace redist::balance {
namespace {

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

// Runs replay over a trace as the simulator does and checks, at every decision, its two rules:
// it rebalances only when cost-benefit would (gain x remaining > makespan) and when the
// imbalance paid since the last rebalance is at least kReplayRent x makespan.
TEST(Replay, RebalancesOnlyWhereCostBenefitWouldAndAfterPayingPartOfThePrice) {
  int rebalances = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Trace trace = random_trace(random_spec(seed));
    const auto policy = make_replay();
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
      EXPECT_GT(gain * static_cast<double>(step.remaining()), makespan) << seed << " " << t;
      EXPECT_GE(paid, kReplayRent * makespan) << seed << " " << t;
      EXPECT_LE(d.predicted_saving, gain * static_cast<double>(step.remaining()) * (1 + 1e-12));
      policy->rebalanced(step);
      counts = targets;
      paid = 0.0;
    }
  }
  EXPECT_GT(rebalances, 300);  // the property was exercised
}

TEST(Replay, SimulationsAreDeterministicAndNoBetterThanTheOracle) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Trace trace = random_trace(random_spec(seed));
    const SimulationResult a = simulate(trace, "replay");
    const SimulationResult b = simulate(trace, "replay");
    EXPECT_EQ(a.total_time, b.total_time) << seed;
    EXPECT_EQ(a.rebalances.size(), b.rebalances.size()) << seed;
    EXPECT_GE(a.total_time, simulate(trace, "oracle").total_time * (1 - 1e-9)) << seed;
  }
}

}  // namespace
}  // namespace redist::balance
