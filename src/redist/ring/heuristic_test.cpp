#include "redist/ring/heuristic.hpp"
#include "redist/ring/light.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/ring/bounds.hpp"
#include "redist/ring/exact.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

Instance bidirectional(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
                       std::vector<double> next, std::vector<double> prev) {
  Instance in;
  in.bidirectional = true;
  in.loads = std::move(loads);
  in.targets = std::move(targets);
  in.cost_next = std::move(next);
  in.cost_prev = std::move(prev);
  validate_instance(in);
  return in;
}

TEST(Heuristic, TimeReversalIsAnInvolution) {
  const Instance in = bidirectional({5, 1, 3, 7}, {4, 4, 4, 4}, {1, 2, 1, 1}, {1.5, 2.5, 0.5, 3});
  const Instance twice = detail::reversed_instance(detail::reversed_instance(in));
  EXPECT_EQ(twice.loads, in.loads);
  EXPECT_EQ(twice.targets, in.targets);
  EXPECT_EQ(twice.cost_next, in.cost_next);
  EXPECT_EQ(twice.cost_prev, in.cost_prev);
}

// A schedule of the reversed instance, read backwards, is a schedule of the instance.
TEST(Heuristic, ReversedSchedulesMapBackToValidOnes) {
  std::mt19937_64 rng(41);
  testkit::RandomRingOptions o;
  o.bidirectional = true;
  o.n_max = 20;
  o.load_min = 0;
  o.target_min = 0;
  o.load_max = 50;
  for (int trial = 0; trial < 1000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const Instance rev = detail::reversed_instance(in);
    std::vector<std::int64_t> flows = system6_integer_optimum(rev).flows;
    const detail::ChainOrders orders{std::vector<char>(in.size(), 1),
                                     std::vector<char>(in.size(), 1)};
    const auto runs = detail::chain_schedule(rev, flows, orders);
    ASSERT_TRUE(runs.has_value());
    Schedule s;
    s.transfers = detail::unreverse_runs(in, *runs);
    s.makespan = schedule_makespan(in, s.transfers);
    const CheckResult v = check(in, s, Stated{true, false, {}});
    ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
    ASSERT_NEAR(v.makespan, schedule_makespan(rev, *runs), 1e-9 * v.makespan);
  }
}

// With light flows, "next first" at every source and sink is RRV04 Lemma 9's schedule: it meets
// System 6's optimum, so the heuristic is optimal on light instances.
TEST(Heuristic, OptimalWhenTheSystem6FlowIsLight) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::size_t> size(2, 64);
  std::uniform_int_distribution<std::int64_t> load(200, 1000), moved(1, 60);
  std::uniform_real_distribution<double> cost(0.1, 10);
  int light_instances = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Large loads and a few small moves between random processors: mostly light flows.
    const std::size_t n = size(rng);
    Instance in;
    in.bidirectional = true;
    for (std::size_t i = 0; i < n; ++i) {
      in.loads.push_back(load(rng));
      in.cost_next.push_back(cost(rng));
      in.cost_prev.push_back(cost(rng));
    }
    in.targets = in.loads;
    std::uniform_int_distribution<std::size_t> who(0, n - 1);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t from = who(rng), to = who(rng);
      const std::int64_t m = std::min(moved(rng), in.targets[from]);
      in.targets[from] -= m;
      in.targets[to] += m;
    }
    const System6Solution tau6 = system6_integer_optimum(in);
    if (!redist::ring::is_light(in, tau6.flows)) continue;
    ++light_instances;
    const Schedule s = plan_heuristic(in);
    ASSERT_NEAR(s.makespan, tau6.tau, 1e-9 * tau6.tau) << "trial " << trial;
    ASSERT_TRUE(s.optimal);
  }
  EXPECT_GT(light_instances, 1000);
}

// Every plan is valid and never below the System 6 bound, with or without zero loads.
TEST(HeuristicProperty, ValidOnRandomHeterogeneousBidirectionalRings) {
  std::mt19937_64 rng(43);
  int optimal = 0, trials = 0;
  for (std::int64_t minimum : {0, 1}) {
    testkit::RandomRingOptions o;
    o.bidirectional = true;
    o.load_min = minimum;
    o.target_min = minimum;
    for (int trial = 0; trial < 5000; ++trial, ++trials) {
      const Instance in = testkit::random_ring(rng, o);
      const Schedule s = plan_heuristic(in);
      const CheckResult v = check(in, s);
      ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
      ASSERT_GE(s.makespan, s.lower_bound.value() * (1 - 1e-9));
      ASSERT_EQ(s.optimal, s.makespan <= s.lower_bound.value() * (1 + 1e-9));
      optimal += s.optimal;
    }
  }
  EXPECT_GT(optimal, trials / 2);
}

// Small rings where the exact optimum is known: the heuristic is never better than it (a sanity
// check of both) and we measure how far it is.
TEST(HeuristicProperty, NeverBelowTheExactOptimum) {
  std::mt19937_64 rng(44);
  std::uniform_int_distribution<int> cost(1, 4);
  testkit::RandomRingOptions o;
  o.bidirectional = true;
  o.n_max = 5;
  o.load_min = 0;
  o.target_min = 0;
  o.load_max = 4;
  int compared = 0, matched = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Instance in = testkit::random_ring(rng, o);
    for (auto& c : in.cost_next) c = cost(rng);
    for (auto& c : in.cost_prev) c = cost(rng);
    Schedule exact;
    try {
      exact = plan_exact(in);
    } catch (const std::exception&) {
      continue;  // over exact's size limits
    }
    if (!exact.optimal) continue;  // stopped by its node limit: not an optimum
    const Schedule h = plan_heuristic(in);
    ASSERT_TRUE(check(in, h).valid);
    ASSERT_GE(h.makespan, exact.makespan * (1 - 1e-9)) << "trial " << trial;
    ++compared;
    matched += h.makespan <= exact.makespan * (1 + 1e-9);
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(matched, compared * 9 / 10);
}

TEST(Heuristic, UnidirectionalRingsGetAlgorithm2sOptimum) {
  std::mt19937_64 rng(45);
  testkit::RandomRingOptions o;
  for (int trial = 0; trial < 500; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const Schedule s = plan_heuristic(in);
    ASSERT_TRUE(check(in, s).valid);
    ASSERT_NEAR(s.makespan, theorem2_bound(in), 1e-9 * s.makespan);
  }
}

}  // namespace
}  // namespace redist::ring
