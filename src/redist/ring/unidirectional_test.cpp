#include "redist/ring/unidirectional.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

Instance make(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
              std::vector<double> cost_next) {
  Instance in;
  in.loads = std::move(loads);
  in.targets = std::move(targets);
  in.cost_next = std::move(cost_next);
  validate_instance(in);
  return in;
}

void expect_valid(const Instance& in, const Schedule& s) {
  const CheckResult v = check(in, s);
  ASSERT_TRUE(v.valid) << v.reason;
  EXPECT_DOUBLE_EQ(v.makespan, s.makespan);
}

TEST(Unidirectional, FlowsAreTheMinimalNonNegativeOnes) {
  // delta = 4 -2 1 -3: prefix 4 2 3 0, min 0 -> flows 4 2 3 0.
  const Instance in = make({5, 1, 3, 1}, {1, 3, 2, 4}, {1, 1, 1, 1});
  EXPECT_EQ(unidirectional_flows(in), (std::vector<std::int64_t>{4, 2, 3, 0}));
}

// RRV04 Lemma 2: the processor that starts the slice of maximal imbalance receives nothing.
TEST(Unidirectional, StartProcessorReceivesNothing) {
  const Instance in = make({1, 6, 2, 1, 5}, {3, 3, 3, 3, 3}, {1.0, 2.0, 0.5, 1.5, 1.0});
  // delta = -2 3 -1 -2 2; prefix -2 1 0 -2 0; min -2 at index 0 (first) -> start = 1.
  const Schedule s = plan_unidirectional(in);
  for (const ring::Run& r : s.transfers) {
    EXPECT_NE(in.receiver(static_cast<std::size_t>(r.from), r.dir), 1u) << "start received";
  }
  expect_valid(in, s);
}

// Homogeneous rings: Algorithm 1 sends in synchronous steps from time 0, so every processor
// sends one back-to-back run starting at 0, and the makespan is Lemma 1's bound.
TEST(Unidirectional, HomogeneousIsAlgorithm1) {
  const Instance in = make({7, 1, 1, 3, 3}, {3, 3, 3, 3, 3}, {2, 2, 2, 2, 2});
  const Schedule s = plan_unidirectional(in);
  for (const ring::Run& r : s.transfers) {
    EXPECT_EQ(r.start, 0.0);
    EXPECT_EQ(r.period, 0.0);
  }
  EXPECT_DOUBLE_EQ(s.makespan, lemma1_bound(in));
  EXPECT_DOUBLE_EQ(s.makespan, 8.0);  // the slice {0} has imbalance 4: 4 items * cost 2
  expect_valid(in, s);
}

// RRV04 Lemma 5: no forwarding delay. A relay holding one item forwards 8 items from a slower
// upstream link at the upstream pace (a run with a period), and finishes before the bound.
TEST(Unidirectional, RelayForwardsAtUpstreamPaceWithoutDelay) {
  const Instance in = make({10, 1, 1}, {1, 1, 10}, {2.0, 1.0, 1.0});
  const Schedule s = plan_unidirectional(in);
  expect_valid(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 18.0);  // P0 sends 9 items over its cost-2 link
  EXPECT_DOUBLE_EQ(s.lower_bound.value(), 18.0);
  EXPECT_TRUE(s.optimal);
  // P1: its own item at 0, then the 8 it forwards as they arrive at 2, 4, ..., 16.
  std::vector<ring::Run> relay;
  for (const ring::Run& r : s.transfers) {
    if (r.from == 1) relay.push_back(r);
  }
  ASSERT_EQ(relay.size(), 2u);
  EXPECT_EQ(relay[0].start, 0.0);
  EXPECT_EQ(relay[0].count, 1);
  EXPECT_EQ(relay[1].start, 2.0);
  EXPECT_EQ(relay[1].count, 8);
  EXPECT_EQ(relay[1].period, 2.0);
}

// RRV04 Theorem 2 as printed would charge a negative slice its outgoing link; the corrected bound
// charges its incoming link. Here the slice {P1} needs 2 items over the cost-1 link 0->1 while
// its outgoing link costs 10: the optimum is 2, which the printed form (20) would exceed.
TEST(Unidirectional, CorrectedTheorem2ChargesIncomingLinks) {
  const Instance in = make({3, 1, 2}, {1, 3, 2}, {1.0, 10.0, 1.0});
  EXPECT_DOUBLE_EQ(theorem2_bound(in), 2.0);
  const Schedule s = plan_unidirectional(in);
  EXPECT_DOUBLE_EQ(s.makespan, 2.0);
  expect_valid(in, s);
}

TEST(Unidirectional, EdgeCases) {
  // n = 2, already balanced, one heavy processor, a zero load relay and zero targets.
  for (const Instance& in :
       {make({5, 1}, {3, 3}, {1.5, 0.5}), make({4, 4, 4}, {4, 4, 4}, {1, 2, 3}),
        make({100, 0, 0, 0}, {25, 25, 25, 25}, {1, 3, 2, 1}),
        make({0, 0, 9, 0}, {3, 3, 0, 3}, {0.5, 2, 1, 4})}) {
    const Schedule s = plan_unidirectional(in);
    expect_valid(in, s);
    EXPECT_GE(s.makespan, s.lower_bound.value() * (1 - 1e-12));
  }
  const Instance balanced = make({4, 4, 4}, {4, 4, 4}, {1, 2, 3});
  EXPECT_TRUE(plan_unidirectional(balanced).transfers.empty());
  EXPECT_EQ(plan_unidirectional(balanced).makespan, 0.0);
}

TEST(Unidirectional, HugeCountsAreExactAndFast) {
  const std::int64_t big = 4'000'000'000'000'000'000;
  const Instance in = make({big, 1, 1, 1}, {1, big - 2, 2, 2}, {1.0, 3.0, 0.5, 2.0});
  const Schedule s = plan_unidirectional(in);
  expect_valid(in, s);
  EXPECT_EQ(s.flows[0], big - 1);
  EXPECT_TRUE(s.optimal);
}

TEST(Unidirectional, RefusesBidirectionalRings) {
  Instance in = make({2, 0}, {1, 1}, {1, 1});
  in.bidirectional = true;
  in.cost_prev = {1, 1};
  EXPECT_THROW(plan_unidirectional(in), InputError);
}

// RRV04 Theorems 1-2 over random instances meeting the paper's assumptions (loads, targets >= 1):
// every plan is valid and its makespan is exactly the lower bound.
TEST(UnidirectionalProperty, OptimalOnRandomInstances) {
  std::mt19937_64 rng(20261122);
  for (bool homogeneous : {false, true}) {
    testkit::RandomRingOptions o;
    o.homogeneous = homogeneous;
    for (int trial = 0; trial < 10'000; ++trial) {
      const Instance in = testkit::random_ring(rng, o);
      const Schedule s = plan_unidirectional(in);
      const CheckResult v = check(in, s);
      ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
      const double bound = homogeneous ? lemma1_bound(in) : theorem2_bound(in);
      ASSERT_NEAR(s.makespan, bound, 1e-9 * bound) << "trial " << trial;
      ASSERT_TRUE(s.optimal);
    }
  }
}

// Zero loads and targets are outside the paper's assumptions: plans stay valid.
TEST(UnidirectionalProperty, ValidWithZeroLoadsAndTargets) {
  std::mt19937_64 rng(7);
  testkit::RandomRingOptions o;
  o.load_min = 0;
  o.target_min = 0;
  int optimal = 0;
  for (int trial = 0; trial < 10'000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const Schedule s = plan_unidirectional(in);
    const CheckResult v = check(in, s);
    ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
    ASSERT_GE(s.makespan, s.lower_bound.value() * (1 - 1e-9));
    optimal += s.optimal;
  }
  EXPECT_GT(optimal, 0);
}

}  // namespace
}  // namespace redist::ring
