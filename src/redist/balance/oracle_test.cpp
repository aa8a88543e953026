#include "redist/balance/oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::balance {
namespace {

double brute_force_total(const Trace& trace) {
  const std::int64_t k = trace.iterations();
  double best = std::numeric_limits<double>::infinity();
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << (k - 1)); ++mask) {
    std::vector<std::int64_t> points;
    for (std::int64_t j = 1; j < k; ++j)
      if (mask >> (j - 1) & 1) points.push_back(j);
    best = std::min(best, simulate_points(trace, points).total_time);
  }
  return best;
}

Trace random_small_trace(std::uint64_t seed) {
  TraceSpec spec;
  spec.drift = static_cast<Drift>(seed % 3);
  spec.processors = 2 + seed % 5;
  spec.iterations = 1 + static_cast<std::int64_t>(seed % 8);
  spec.items = static_cast<std::int64_t>(seed * 7919 % 300);
  spec.ratio = std::pow(10.0, static_cast<double>(seed % 7) / 2 - 1.5);
  spec.seed = seed;
  Trace trace = random_trace(spec);
  if (seed % 4 == 0) {  // unbalanced start, one heavy processor
    trace.initial_loads.assign(spec.processors, 0);
    trace.initial_loads[seed % spec.processors] = spec.items;
  }
  if (seed % 5 == 0) trace.ring.bidirectional = false, trace.ring.cost_prev.clear();
  return trace;
}

TEST(Oracle, EqualsBruteForceOverEverySubset) {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const Trace trace = random_small_trace(seed);
    const SimulationResult oracle = hindsight_optimum(trace);
    const double brute = brute_force_total(trace);
    ASSERT_NEAR(oracle.total_time, brute, 1e-9 * std::max(brute, 1e-300)) << "seed " << seed;
    EXPECT_EQ(oracle.policy, "oracle");
  }
}

// Speeds spanning 300 orders of magnitude: iteration times from 1e-150 to 1e150 in one trace.
// The oracle used to difference prefix sums, which lost every term after a huge one (it reported
// 3e100 where rebalancing every iteration totals 1e100).
Trace extreme_trace(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Trace trace = random_small_trace(seed);
  std::uniform_real_distribution<double> exponent(-150.0, 150.0);
  for (auto& speeds : trace.speeds) {
    for (double& s : speeds) s = rng() % 3 == 0 ? std::pow(10.0, exponent(rng)) : 1.0;
  }
  return trace;
}

TEST(Oracle, EqualsBruteForceAtEveryMagnitude) {
  int checked = 0;
  const auto seeds = static_cast<std::uint64_t>(testkit::random_cases(300));
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    Trace trace = extreme_trace(seed);
    try {
      validate_trace(trace);
    } catch (const InputError&) {
      continue;  // times beyond the double range are refused, naming the field
    }
    const SimulationResult oracle = hindsight_optimum(trace);
    const double brute = brute_force_total(trace);
    ASSERT_LE(oracle.total_time, brute * (1 + 1e-12)) << "seed " << seed;
    ASSERT_GE(oracle.total_time, brute * (1 - 1e-12)) << "seed " << seed;
    ++checked;
  }
  EXPECT_GT(checked, testkit::random_cases(200));
}

TEST(Oracle, NoPolicyBeatsIt) {
  const std::vector<std::string> policies = {
      "never",       "at:5",         "every:2",     "every:5",        "threshold:1.05",
      "threshold:2", "cost-benefit", "period-rule", "stable-horizon", "stable-horizon:0.5",
      "replay",      "hedged-replay"};
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    TraceSpec spec;
    spec.drift = static_cast<Drift>(seed % 3);
    spec.processors = 2 + seed % 10;
    spec.iterations = 10 + static_cast<std::int64_t>(seed % 30);
    spec.items = 100 + static_cast<std::int64_t>(seed * 31 % 2000);
    spec.ratio = std::pow(10.0, static_cast<double>(seed % 5) - 2);
    spec.seed = seed;
    const Trace trace = random_trace(spec);
    const double oracle = hindsight_optimum(trace).total_time;
    for (const std::string& policy : policies) {
      const SimulationResult r = simulate(trace, policy);
      EXPECT_GE(r.total_time, oracle * (1 - 1e-9)) << policy << " seed " << seed;
      EXPECT_GE(r.total_time, r.lower_bound * (1 - 1e-12));
    }
  }
}

TEST(Oracle, PiecewiseConstantSpeedsPlanFewRedistributions) {
  TraceSpec spec;
  spec.iterations = 200;
  spec.processors = 16;
  const Trace trace = random_trace(spec);
  const SimulationResult r = hindsight_optimum(trace);
  EXPECT_LE(r.total_time, simulate(trace, "never").total_time);
  EXPECT_LE(r.total_time, simulate(trace, "cost-benefit").total_time * (1 + 1e-9));
}

TEST(Oracle, RefusesTracesBeyondItsLimits) {
  TraceSpec spec;
  spec.iterations = kMaxOracleIterations + 1;
  spec.processors = 2;
  try {
    hindsight_optimum(random_trace(spec));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "policy");
  }
}

}  // namespace
}  // namespace redist::balance
