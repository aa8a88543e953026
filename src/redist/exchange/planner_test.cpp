#include "redist/exchange/planner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using testkit::uniform_exchange;

// Three nodes whose whole messages need 9 s where preemption reaches the bound, 7 s.
std::vector<Message> preemption_pays(std::int64_t first_node = 0) {
  const std::int64_t a = first_node, b = first_node + 1, c = first_node + 2;
  return {{a, b, 3}, {a, c, 1}, {b, a, 4}, {b, c, 1}, {c, a, 2}, {c, b, 4}};
}

void expect_valid(const Instance& in, const Plan& p) {
  const CheckResult r = check(in, p);
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(Auto, KeepsWholeWhenItMeetsTheBound) {
  const Instance in = uniform_exchange(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 2, 1}});
  const Plan p = plan(in);
  EXPECT_EQ(p.algorithm, "whole");
  EXPECT_TRUE(p.optimal);
  EXPECT_DOUBLE_EQ(p.makespan, 2.0);
}

TEST(Auto, TakesPreemptivesOptimumWhenWholeMissesTheBound) {
  const Instance in = uniform_exchange(3, preemption_pays());
  EXPECT_DOUBLE_EQ(plan_whole(in).makespan, 9.0);
  const Plan p = plan(in);
  EXPECT_EQ(p.algorithm, "preemptive");
  EXPECT_TRUE(p.optimal);
  EXPECT_NEAR(p.makespan, 7.0, 1e-12);
  expect_valid(in, p);
}

// Without latency auto is optimal on every instance within its budget; with one, it is no worse
// than whole or preemptive.
TEST(Auto, OptimalWithoutLatencyAndNoWorseThanEitherWithOne) {
  std::mt19937_64 rng(38);
  for (int trial = 0; trial < testkit::random_cases(400); ++trial) {
    testkit::RandomExchangeOptions o;
    o.partners = 1 + static_cast<std::size_t>(trial % 6);
    o.latency = trial % 2 == 0 ? 0.0 : 10.0;
    const Instance in = testkit::random_exchange(rng, o);
    const Plan p = plan(in);
    expect_valid(in, p);
    if (o.latency == 0) {
      EXPECT_TRUE(p.optimal) << "trial " << trial << ": " << p.algorithm;
    } else if (in.messages.size() > 4) {
      const double either = std::min(plan_whole(in).makespan, plan_preemptive(in).makespan);
      EXPECT_LE(p.makespan, either) << "trial " << trial;
    }
  }
}

// Beyond kAutoPreemptiveMessages auto returns whole and states its gap, without running
// preemptive: 17,000 copies of the three nodes above (102,000 messages).
TEST(Auto, BeyondItsSizeLimitStatesWholesGap) {
  Instance in = uniform_exchange(3 * 17'000, {});
  for (std::int64_t g = 0; g < 17'000; ++g) {
    for (const Message& m : preemption_pays(3 * g)) in.messages.push_back(m);
  }
  ASSERT_GT(in.messages.size(), kAutoPreemptiveMessages);
  const Plan p = plan(in);
  EXPECT_EQ(p.algorithm, "whole");
  EXPECT_FALSE(p.optimal);
  EXPECT_DOUBLE_EQ(p.makespan, 9.0);
  ASSERT_FALSE(p.notes.empty());
  EXPECT_EQ(
      p.notes.back(),
      "auto: whole, 28.6% above the lower bound; preemptive not tried beyond 100000 messages");
}

TEST(PreemptiveWithin, EmptyOverItsBudgetAndTheSamePlanWithin) {
  const Instance in = uniform_exchange(3, preemption_pays());
  EXPECT_FALSE(plan_preemptive_within(in, 0));
  const auto p = plan_preemptive_within(in, std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(p);
  const Plan q = plan_preemptive(in);
  EXPECT_EQ(p->makespan, q.makespan);
  EXPECT_EQ(p->pieces.size(), q.pieces.size());
}

// A time limit given to an algorithm that does not search is said to have no effect.
TEST(Plan, ATimeLimitOnAnAlgorithmThatDoesNotSearchIsSaidUnused) {
  const Instance in = uniform_exchange(3, preemption_pays());
  const Plan whole = plan(in, "whole", 5.0);
  ASSERT_FALSE(whole.notes.empty());
  EXPECT_EQ(whole.notes.back(),
            "the time limit has no effect on whole: only exact and auto search");
  for (const std::string& note : plan(in, "auto", 5.0).notes) {
    EXPECT_EQ(note.find("no effect"), std::string::npos) << note;
  }
}

}  // namespace
}  // namespace redist::exchange
