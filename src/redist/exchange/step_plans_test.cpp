// The step planners `min-steps` and `caterpillar`, and their backbone split.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <ctime>
#include <map>
#include <random>
#include <set>

#include "redist/common/error.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/caterpillar.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/step_plans.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using testkit::uniform_exchange;

// The steps of a step plan: its distinct start times (every piece lasts more than 0).
std::size_t steps_of(const Plan& plan) {
  std::set<double> starts;
  for (const Piece& p : plan.pieces) starts.insert(p.start);
  return starts.size();
}

// A proper colouring: no node sends or receives two messages of one colour, colours < Delta.
void expect_proper(const Instance& in, const std::vector<std::uint32_t>& colours) {
  const std::size_t delta = largest_degree(in);
  ASSERT_EQ(colours.size(), in.messages.size());
  std::set<std::pair<std::int64_t, std::uint32_t>> sends, receives;
  for (std::size_t k = 0; k < colours.size(); ++k) {
    ASSERT_LT(colours[k], delta);
    ASSERT_TRUE(sends.insert({in.messages[k].from, colours[k]}).second) << "message " << k;
    ASSERT_TRUE(receives.insert({in.messages[k].to, colours[k]}).second) << "message " << k;
  }
}

TEST(MinSteps, RefusesBeyondItsLimitOfMessagesTimesDeltaBeforeAnyWork) {
  // 1,000,000 messages, 2,500 from each of nodes 0..399: 2.5e9 messages x Delta.
  const Instance over = testkit::circulant_exchange(1'000'000, 2'500);
  const std::clock_t started = std::clock();
  try {
    plan(over, "min-steps");
    ADD_FAILURE() << "not refused";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.path(), "algorithm");
    EXPECT_EQ(e.message(),
              fmt::format("min-steps: 1000000 messages, up to 2500 of one node, more than the {} "
                          "messages x messages of one node this algorithm plans (its colouring "
                          "scans up to that many colours per message); use auto or whole",
                          kMaxMinStepsMessagesTimesDegree));
  }
  EXPECT_LT(static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC, 0.05);
  // Within the limit it plans (a small instance: at the limit it takes seconds).
  const Instance in = testkit::circulant_exchange(2'000, 50);
  EXPECT_EQ(plan(in, "min-steps").steps->count, 50u);
}

TEST(MinSteps, ExactlyDeltaColoursWithEitherTable) {
  std::mt19937_64 rng(71);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < 2000; ++trial) {
    o.nodes_max = trial < 1500 ? 10 : 60;
    o.partners = 1 + static_cast<std::size_t>(trial % 9);
    const Instance in = testkit::random_exchange(rng, o);
    expect_proper(in, min_step_colours(in, ColourTable::dense));
    expect_proper(in, min_step_colours(in, ColourTable::sparse));
    if (HasFatalFailure()) FAIL() << "trial " << trial;
  }
}

TEST(MinSteps, ValidPlansWithDeltaStepsOnRandomInstances) {
  std::mt19937_64 rng(73);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < 4000; ++trial) {
    o.latency = trial % 2 == 0 ? 0.0 : 3.0;
    o.backbone = trial % 3 == 0;
    o.nodes_max = trial < 3000 ? 8 : 40;
    o.partners = 1 + static_cast<std::size_t>(trial % 6);
    const Instance in = testkit::random_exchange(rng, o);
    for (const char* name : {"min-steps", "caterpillar"}) {
      const Plan p = plan(in, name);
      ASSERT_EQ(p.algorithm, name);
      ASSERT_EQ(p.pieces.size(), in.messages.size()) << name << " trial " << trial;
      const CheckResult r = check(in, p);
      ASSERT_TRUE(r.valid) << name << " trial " << trial << ": " << r.reason;
      ASSERT_GE(p.makespan, p.lower_bound.value() * (1 - 1e-12));
    }
    if (!in.backbone) {  // the caterpillar's step t holds the pairs with from + to = t mod p
      std::map<double, std::set<std::int64_t>> sums;
      for (const Piece& p : plan(in, "caterpillar").pieces) {
        sums[p.start].insert((p.from + p.to) % static_cast<std::int64_t>(in.nodes));
      }
      for (const auto& [start, at] : sums) ASSERT_EQ(at.size(), 1u) << "trial " << trial;
    }
    const Plan steps = plan(in, "min-steps");
    if (!in.backbone) {
      ASSERT_EQ(steps_of(steps), largest_degree(in)) << "trial " << trial;
    } else {
      ASSERT_GE(steps_of(steps), largest_degree(in)) << "trial " << trial;
    }
  }
}

TEST(MinSteps, EqualDurationsTakeDeltaStepsOfOneMessageAndAreOptimal) {
  std::mt19937_64 rng(79);
  testkit::RandomExchangeOptions o;
  o.bandwidth_spread = 1.0;
  for (int trial = 0; trial < 1000; ++trial) {
    o.nodes_max = trial < 700 ? 10 : 50;
    o.partners = 1 + static_cast<std::size_t>(trial % 7);
    o.latency = trial % 2 == 0 ? 0.0 : 0.25;
    Instance in = testkit::random_exchange(rng, o);
    for (Message& m : in.messages) m.bytes = 5;
    const Plan p = plan_min_steps(in);
    const double delta = static_cast<double>(largest_degree(in));
    ASSERT_DOUBLE_EQ(p.makespan, delta * (in.latency + 5.0)) << "trial " << trial;
    ASSERT_TRUE(p.optimal) << "trial " << trial;
    ASSERT_TRUE(check(in, p).valid);
  }
}

TEST(MinSteps, AllToAllBeatsTheCaterpillarByOneStep) {
  std::vector<Message> all;
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < 4; ++j)
      if (i != j) all.push_back({i, j, 10});
  const Instance in = uniform_exchange(4, all, 1.0);
  const Plan steps = plan_min_steps(in), caterpillar = plan_caterpillar(in);
  EXPECT_DOUBLE_EQ(steps.makespan, 3 * 11.0);
  EXPECT_TRUE(steps.optimal);
  EXPECT_DOUBLE_EQ(caterpillar.makespan, 4 * 11.0);  // steps 0..3 all hold a pair
  EXPECT_FALSE(caterpillar.optimal);
  EXPECT_EQ(steps_of(caterpillar), 4u);
}

TEST(MinSteps, LongMessagesShareAStep) {
  // Two long messages on disjoint pairs and two short ones: the long ones run together.
  const Instance in = uniform_exchange(4, {{0, 1, 100}, {2, 3, 90}, {0, 3, 1}, {2, 1, 2}}, 0.5);
  const Plan p = plan_min_steps(in);
  EXPECT_DOUBLE_EQ(p.makespan, 100.5 + 2.5);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_EQ(p.notes[0],
            "2 steps, the most messages of one node: no step schedule sending each message whole "
            "has fewer");
  EXPECT_EQ(p.notes[1], "step lengths (latency + longest piece): 100.5, 2.5");
}

TEST(MinSteps, ALargeStarUsesTheSparseTableAndIsOptimal) {
  // 2 x 5000 nodes x 4999 colours is beyond the dense table's 2^24 entries.
  std::vector<Message> star;
  for (std::int64_t j = 1; j < 5000; ++j) star.push_back({0, j, 1 + j % 7});
  const Instance in = uniform_exchange(5000, star, 0.5);
  const Plan p = plan_min_steps(in);
  EXPECT_EQ(steps_of(p), 4999u);
  EXPECT_TRUE(p.optimal);
  EXPECT_TRUE(check(in, p).valid);
}

TEST(StepPlanners, EdgeCases) {
  for (const char* name : {"min-steps", "caterpillar"}) {
    SCOPED_TRACE(name);
    // No message: no step.
    const Plan none = plan(uniform_exchange(3, {}), name);
    EXPECT_EQ(none.makespan, 0.0);
    EXPECT_TRUE(none.pieces.empty());
    // One message between two nodes, and a pair exchanging both ways in one step.
    EXPECT_DOUBLE_EQ(plan(uniform_exchange(2, {{1, 0, 7}}, 2.0), name).makespan, 9.0);
    const Plan swap = plan(uniform_exchange(2, {{0, 1, 7}, {1, 0, 3}}), name);
    EXPECT_DOUBLE_EQ(swap.makespan, 7.0);
    EXPECT_TRUE(swap.optimal);
    // 2^53 bytes with latency, and heterogeneous bandwidths.
    Instance huge =
        uniform_exchange(3, {{0, 1, std::int64_t{1} << 53}, {1, 2, 1}, {2, 0, 3}}, 1e-6);
    huge.send_bandwidth = {1e9, 2.0, 0.5};
    huge.recv_bandwidth = {3.0, 1e9, 1e-3};
    const Plan h = plan(huge, name);
    const CheckResult r = check(huge, h);
    EXPECT_TRUE(r.valid) << r.reason;
  }
}

TEST(StepPlanners, ABackboneSplitsStepsToItsTransfers) {
  // Three disjoint crossing messages of one step, one transfer: three sub-steps, longest first.
  Instance in = uniform_exchange(6, {{0, 3, 4}, {1, 4, 6}, {2, 5, 5}, {3, 0, 1}});
  in.backbone = Backbone{{{{0, 1, 2}, {3, 4, 5}}}, 1};
  for (const char* name : {"min-steps", "caterpillar"}) {
    SCOPED_TRACE(name);
    const Plan p = plan(in, name);
    const CheckResult r = check(in, p);
    EXPECT_TRUE(r.valid) << r.reason;
    EXPECT_DOUBLE_EQ(p.makespan, 16.0);  // the backbone bound: 4 + 6 + 5 + 1 crossing seconds
    EXPECT_TRUE(p.optimal);
  }
  const std::vector<Step> split = split_for_backbone(in, {{{0, 4}, {1, 6}, {2, 5}}});
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0][0].message, 1u);
  EXPECT_EQ(split[2][0].message, 0u);
}

TEST(Caterpillar, StepTPairsNodesWhoseIndicesSumToT) {
  // p = 5: 0->1, 1->0 and 2->4 at step 1 (0 + 1 = 6 = 1 mod 5), 3->4 and 4->3 at step 2.
  const Instance in = uniform_exchange(5, {{0, 1, 3}, {1, 0, 2}, {2, 4, 1}, {3, 4, 2}, {4, 3, 6}});
  const Plan p = plan_caterpillar(in);
  ASSERT_EQ(p.pieces.size(), 5u);
  // Steps 1 (pairs {0,1}, {2,4}) and 2 (pair {3,4}); steps 0, 3 and 4 are empty.
  EXPECT_DOUBLE_EQ(p.makespan, 3.0 + 6.0);
  EXPECT_EQ(p.pieces[0].start, 0.0);
  EXPECT_EQ(p.pieces[2].start, 0.0);
  EXPECT_EQ(p.pieces[3].start, 3.0);
  EXPECT_EQ(p.notes[0], "2 of 5 steps carry messages (the others are skipped)");
}

}  // namespace
}  // namespace redist::exchange
