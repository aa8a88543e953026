#include "sim/ring_sim.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "redist/balance/model.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace redist::sim {
namespace {

RingSimSpec spec(std::uint64_t seed, std::int64_t p) {
  RingSimSpec s;
  s.platform.seed = seed;
  s.processors = p;
  return s;
}

bool is_machine_speed(double speed) {
  const auto& speeds = balance::kMachineSpeeds;
  return std::find(speeds.begin(), speeds.end(), speed) != speeds.end();
}

// Every host changes speed exactly twice, in the windows after iterations [20, 40] and [60, 80],
// each time to another machine speed; it starts at its host's speed.
TEST(RingSim, SpeedsChangeTwiceInTheirWindows) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Scenario s = make_scenario(spec(seed, seed % 2 ? 8 : 32));
    ASSERT_EQ(s.speeds.size(), 100u);
    for (std::size_t i = 0; i < s.ring.size(); ++i) {
      EXPECT_EQ(s.speeds[0][i], s.graph.nodes[static_cast<std::size_t>(s.ring[i])].speed);
      std::vector<std::size_t> changes;
      for (std::size_t t = 1; t < s.speeds.size(); ++t) {
        EXPECT_TRUE(is_machine_speed(s.speeds[t][i]));
        if (s.speeds[t][i] != s.speeds[t - 1][i]) changes.push_back(t);
      }
      ASSERT_EQ(changes.size(), 2u) << seed << " " << i;
      EXPECT_GE(changes[0], 20u);  // t = first: the first iteration at the new speed
      EXPECT_LE(changes[0], 40u);
      EXPECT_GE(changes[1], 60u);
      EXPECT_LE(changes[1], 80u);
    }
    EXPECT_EQ(s.initial, balance::balanced_targets(1000, s.speeds[0]));
  }
}

// The model's costs are the column's bytes over the bottleneck bandwidth of each route, and the
// ratio sets the work per column so that a balanced iteration at the first speeds takes rho times
// the reference redistribution.
TEST(RingSim, CostsAndRatio) {
  const Scenario s = make_scenario(spec(2, 8));
  for (std::size_t i = 0; i < s.ring.size(); ++i) {
    EXPECT_DOUBLE_EQ(s.costs.cost_next[i], 8000.0 / s.links[i].next.bandwidth);
    EXPECT_DOUBLE_EQ(s.costs.cost_prev[i], 8000.0 / s.links[i].prev.bandwidth);
  }
  EXPECT_GT(s.reference_redistribution, 0);
  for (double rho : {0.01, 1.0, 10.0}) {
    const double f = flops_per_column(s, rho);
    const balance::Trace trace = model_trace(s, f);
    const double speed = std::accumulate(trace.speeds[0].begin(), trace.speeds[0].end(), 0.0);
    EXPECT_NEAR(1000.0 / speed, rho * s.reference_redistribution,
                1e-12 * rho * s.reference_redistribution);
  }
  EXPECT_THROW(flops_per_column(s, 0), InputError);
  EXPECT_THROW(flops_per_column(s, -1), InputError);
}

// With amplitude A, every change goes to another machine speed within a factor A of the old one;
// the default (8) allows every machine, and changes of more than a factor 2 occur.
TEST(RingSim, AmplitudeBoundsEveryChange) {
  EXPECT_DOUBLE_EQ(min_speed_amplitude(), 28.0 / 22.0);
  double widest_default = 1;
  for (double amplitude : {min_speed_amplitude(), 1.5, 2.0, 8.0}) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      RingSimSpec sp = spec(seed, 32);
      sp.amplitude = amplitude;
      const Scenario s = make_scenario(sp);
      for (std::size_t i = 0; i < s.ring.size(); ++i) {
        std::size_t changes = 0;
        for (std::size_t t = 1; t < s.speeds.size(); ++t) {
          const double a = s.speeds[t - 1][i], b = s.speeds[t][i];
          if (a == b) continue;
          ++changes;
          EXPECT_TRUE(is_machine_speed(b));
          EXPECT_LE(std::max(a, b) / std::min(a, b), amplitude) << seed << " " << i;
          if (amplitude == 8.0)
            widest_default = std::max(widest_default, std::max(a, b) / std::min(a, b));
        }
        EXPECT_EQ(changes, 2u) << amplitude << " " << seed << " " << i;
      }
    }
  }
  EXPECT_GT(widest_default, 4.0);
  RingSimSpec sp = spec(2, 8);
  for (double bad : {1.25, 1.0, 0.0, -2.0, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()}) {
    sp.amplitude = bad;
    EXPECT_THROW(make_scenario(sp), InputError) << bad;
  }
}

// The paper's axis averages the redistributions of the four redistributing schemes that move a
// column: at:50 gives one (from the initial columns), the others at most their point counts; none
// is empty, and the same list comes out of the model simulator at another work per column.
TEST(RingSim, PaperRedistributionsAreTheSchemesNonEmptyOnes) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Scenario s = make_scenario(spec(seed, seed % 2 ? 8 : 32));
    const auto list = paper_redistributions(s);
    ASSERT_FALSE(list.empty());
    EXPECT_LE(list.size(), 1u + 4u + 9u + 19u);
    EXPECT_EQ(list.front().first, s.initial);
    EXPECT_EQ(list.front().second, balance::balanced_targets(1000, s.speeds[49]));
    for (const auto& [from, to] : list) {
      EXPECT_NE(from, to);
      EXPECT_GT(balance::redistribution_makespan(s.costs, from, to), 0);
    }
    const balance::Trace other = model_trace(s, flops_per_column(s, 0.01));
    std::size_t expected = 0;
    for (const std::string& scheme : kPaperRedistributingSchemes) {
      std::vector<std::int64_t> counts = s.initial;
      for (const balance::Rebalance& r : balance::simulate(other, scheme).rebalances) {
        if (r.targets != counts) {
          ASSERT_LT(expected, list.size());
          EXPECT_EQ(list[expected].first, counts);
          EXPECT_EQ(list[expected].second, r.targets);
          ++expected;
        }
        counts = r.targets;
      }
    }
    EXPECT_EQ(expected, list.size());
  }
}

// The speeds in columns per second keep the quotients of the machine speeds exactly, so the
// balanced targets are those of the speeds in Mflop/s whatever the work per column.
TEST(RingSim, TargetsDoNotDependOnTheWork) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Scenario s = make_scenario(spec(seed, 32));
    for (double rho : {0.01, 0.37, 1.0, 7.0, 123.0}) {
      const balance::Trace trace = model_trace(s, flops_per_column(s, rho));
      for (std::size_t t = 0; t < s.speeds.size(); t += 7)
        ASSERT_EQ(balance::balanced_targets(1000, trace.speeds[t]),
                  balance::balanced_targets(1000, s.speeds[t]))
            << seed << " " << rho << " " << t;
    }
  }
  const double f = 3.3e5;
  EXPECT_NEAR(columns_per_second(88, f), 88e6 / f, 1e-13 * 88e6 / f);
}

// flops_for_iteration and balanced_iteration_time are inverse; I(f) is proportional to f.
TEST(RingSim, IterationTimeAndWork) {
  const Scenario s = make_scenario(spec(5, 8));
  for (double seconds : {1e-3, 0.5, 42.0}) {
    const double f = flops_for_iteration(s, seconds);
    EXPECT_NEAR(balanced_iteration_time(s, f), seconds, 1e-12 * seconds);
    EXPECT_NEAR(balanced_iteration_time(s, 2 * f), 2 * seconds, 1e-12 * seconds);
  }
  EXPECT_THROW(flops_for_iteration(s, 0), InputError);
  EXPECT_THROW(flops_for_iteration(s, std::numeric_limits<double>::infinity()), InputError);
}

TEST(RingSim, TheSameScenarioForTheSameSeed) {
  const Scenario a = make_scenario(spec(7, 32)), b = make_scenario(spec(7, 32));
  EXPECT_EQ(a.ring, b.ring);
  EXPECT_EQ(a.speeds, b.speeds);
  EXPECT_EQ(a.costs.cost_next, b.costs.cost_next);
  EXPECT_EQ(ring_model_xml(a), ring_model_xml(b));
  EXPECT_NE(make_scenario(spec(8, 32)).speeds, a.speeds);
}

TEST(RingSim, ModelPlatformHasOneLinkPerRingLinkAndDirection) {
  const Scenario s = make_scenario(spec(3, 8));
  const std::string xml = ring_model_xml(s);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = xml.find(what); at != std::string::npos; at = xml.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<host "), 8u);
  EXPECT_EQ(count("<link "), 16u);
  EXPECT_EQ(count("<route "), 16u);
  EXPECT_NE(xml.find("<route src=\"ring-7\" dst=\"ring-0\" symmetrical=\"NO\"><link_ctn "
                     "id=\"next-7\"/></route>"),
            std::string::npos);
  EXPECT_THROW(ring_model_xml(make_scenario(spec(3, 2))), InputError);
}

TEST(RingSim, RefusesOutOfLimits) {
  RingSimSpec s = spec(2, 8);
  s.iterations = 0;
  EXPECT_THROW(make_scenario(s), InputError);
  s = spec(2, 8);
  s.columns = kMaxColumns + 1;
  EXPECT_THROW(make_scenario(s), InputError);
  s = spec(2, 8);
  s.processors = 1000;  // more than the platform's hosts
  EXPECT_THROW(make_scenario(s), InputError);
  s = spec(2, 8);
  s.iterations = kPaperSchemesLastPoint;  // at:20,40,60,80 needs more
  EXPECT_THROW(paper_redistributions(make_scenario(s)), InputError);
  s.iterations = kPaperSchemesLastPoint + 1;
  EXPECT_FALSE(paper_redistributions(make_scenario(s)).empty());
}

}  // namespace
}  // namespace redist::sim
