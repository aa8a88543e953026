#include "redist/balance/policy.hpp"

#include <gtest/gtest.h>

#include "redist/balance/stable_horizon.hpp"
#include "redist/common/error.hpp"
#include "redist/testing/policy_step.hpp"

namespace redist::balance {
namespace {

using testkit::FakeStep;

TEST(Policy, NeverAtEveryFollowTheirLists) {
  FakeStep f;
  auto never = make_policy("never", 10);
  auto at = make_policy("at:2,5,9", 10);
  auto every = make_policy("every:3", 10);
  for (std::int64_t k = 1; k < 10; ++k) {
    const Step s = f.make(k, 10, 5, 1, 1, 0.1);
    EXPECT_FALSE(never->decide(s).rebalance);
    EXPECT_EQ(at->decide(s).rebalance, k == 2 || k == 5 || k == 9) << k;
    EXPECT_EQ(every->decide(s).rebalance, k % 3 == 0) << k;
  }
  EXPECT_EQ(f.plans, 0);
  EXPECT_EQ(at->name(), "at:2,5,9");
}

TEST(Policy, ThresholdComparesTimeOverTheBound) {
  FakeStep f;
  auto p = make_policy("threshold:1.5", 10);
  EXPECT_FALSE(p->decide(f.make(1, 10, 1.5, 1.0, 1.0, 0)).rebalance);
  EXPECT_TRUE(p->decide(f.make(2, 10, 1.51, 1.0, 1.0, 0)).rebalance);
  EXPECT_FALSE(p->decide(f.make(3, 10, 0.0, 0.0, 0.0, 0)).rebalance);  // no items
  EXPECT_EQ(f.plans, 0);
}

TEST(Policy, CostBenefitComparesSavingWithTheMakespan) {
  FakeStep f;
  auto p = make_policy("cost-benefit", 100);
  // (T - T_bal) (K - k) = 0.5 * 10 = 5 against makespan 5: strict, so no.
  Decision d = p->decide(f.make(90, 100, 1.5, 1.0, 1.0, 5.0));
  EXPECT_FALSE(d.rebalance);
  EXPECT_DOUBLE_EQ(d.predicted_saving, 5.0);
  EXPECT_TRUE(d.planned);
  d = p->decide(f.make(89, 100, 1.5, 1.0, 1.0, 5.0));
  EXPECT_TRUE(d.rebalance);
  EXPECT_DOUBLE_EQ(d.plan_makespan, 5.0);
  // Balanced: no plan at all.
  const int plans = f.plans;
  EXPECT_FALSE(p->decide(f.make(10, 100, 1.0, 1.0, 1.0, 0.0)).rebalance);
  EXPECT_EQ(f.plans, plans);
}

TEST(Policy, PeriodRuleWaitsForFiveSamplesThenUsesTheQuadratic) {
  FakeStep f;
  auto p = make_policy("period-rule", 1000);
  EXPECT_EQ(p->name(), "period-rule");
  // Imbalance grows by 1 per iteration from 1: c = 0, m = 1; period tau with tau^2 / 2 = C = 50
  // is 10: rebalance at the 10th sample, not before.
  for (std::int64_t j = 1; j <= 12; ++j) {
    const double imbalance = static_cast<double>(j);
    const Decision d = p->decide(f.make(j, 1000, 10 + imbalance, 10, 10, 50.0));
    EXPECT_EQ(d.rebalance, j >= 10) << j << ": " << d.reason;
    if (d.rebalance) {
      p->rebalanced(f.make(j, 1000, 10, 10, 10, 50.0));
      break;
    }
  }
  // After a rebalance the samples start again: four more are not enough.
  for (std::int64_t j = 11; j <= 14; ++j)
    EXPECT_FALSE(p->decide(f.make(j, 1000, 100, 10, 10, 1.0)).rebalance);
  EXPECT_TRUE(p->decide(f.make(15, 1000, 100, 10, 10, 1.0)).rebalance);
  // Within the 1.1 tolerance it never rebalances.
  // `metabalancer`, the former name, is the same policy under its new name.
  auto q = make_policy("metabalancer", 1000);
  EXPECT_EQ(q->name(), "period-rule");
  for (std::int64_t j = 1; j <= 20; ++j)
    EXPECT_FALSE(q->decide(f.make(j, 1000, 10.9, 10, 10, 0.001)).rebalance);
}

TEST(Policy, StableHorizonWaitsForTheSpeedsToLast) {
  FakeStep f;
  auto p = make_policy("stable-horizon:1", 1000);
  // Constant speeds: gain 1 per iteration, makespan 5: rebalance once age * 1 > 5, at age 6.
  for (std::int64_t k = 1; k <= 6; ++k)
    EXPECT_EQ(p->decide(f.make(k, 1000, 2, 1, 1, 5.0)).rebalance, k == 6) << k;
  p->rebalanced(f.make(6, 1000, 2, 1, 1, 5.0));
  // A speed change restarts the age.
  f.speeds = {1, 2};
  EXPECT_FALSE(p->decide(f.make(7, 1000, 2, 1, 1, 5.0)).rebalance);
  // Near the end the remaining iterations cap the horizon, as in cost-benefit.
  f.speeds = {1, 1};
  auto q = make_policy("stable-horizon:100", 10);
  EXPECT_FALSE(q->decide(f.make(9, 10, 2, 1, 1, 5.0)).rebalance);
}

TEST(Policy, ReplayFallsBackOnTheStableAgeAndWaitsForHalfTheMakespan) {
  FakeStep f;
  f.counts = {12, 8};
  auto p = make_policy("replay", 1000);
  // Constant speeds, gain 1 per iteration, makespan 5. Until three past points reached lag 1
  // (k = 4) the horizon is the age of the speeds: 1, 2, 3. Then the curve (D = 1 at every
  // trusted lag) plus its tail, as long again: 2 at k = 4, 4 at k = 5, 6 at k = 6 > 5.
  for (std::int64_t k = 1; k <= 6; ++k)
    EXPECT_EQ(p->decide(f.make(k, 1000, 2, 1, 1, 5.0)).rebalance, k == 6) << k;
  p->rebalanced(f.make(6, 1000, 2, 1, 1, 5.0));
  // After a rebalance the imbalance paid starts again from 0: the curve says the gain lasts,
  // yet it waits until half the makespan, 2.5, has been paid (k = 7, 8, 9: 1, 2, 3).
  for (std::int64_t k = 7; k <= 9; ++k)
    EXPECT_EQ(p->decide(f.make(k, 1000, 2, 1, 1, 5.0)).rebalance, k == 9) << k;
  // Balanced: no plan, no rebalance.
  auto q = make_policy("replay", 1000);
  EXPECT_FALSE(q->decide(f.make(1, 1000, 1, 1, 1, 5.0)).rebalance);
  EXPECT_EQ(f.plans, 9);
}

TEST(Policy, ReplayLearnsThatTransientSlowdownsDoNotPay) {
  // Processor 0 slows down 4x for two iterations out of six. A rebalance made at the start of a
  // slowdown saves 24 per iteration while it lasts and costs 6 per iteration once it is over,
  // so the learnt curve soon says that it does not pay for its makespan of 30, while
  // cost-benefit (the slowdown assumed to last for the remaining ~990 iterations) rebalances at
  // every slow iteration.
  FakeStep f;
  f.counts = {10, 10};
  auto replay = make_policy("replay", 1000);
  auto cost_benefit = make_policy("cost-benefit", 1000);
  std::vector<std::int64_t> rebalances;
  for (std::int64_t k = 1; k <= 60; ++k) {
    const bool slow = k % 6 == 1 || k % 6 == 2;
    f.speeds = slow ? std::vector<double>{0.25, 1} : std::vector<double>{1, 1};
    f.targets = slow ? std::vector<double>{4, 16} : std::vector<double>{10, 10};
    const Step s = f.make(k, 1000, slow ? 40 : 10, slow ? 16 : 10, 16, 30.0);
    EXPECT_EQ(cost_benefit->decide(s).rebalance, slow) << k;
    if (replay->decide(s).rebalance) rebalances.push_back(k);
  }
  // Only the second slow iteration of the first slowdown, judged by the age fallback (2 x 24).
  EXPECT_EQ(rebalances, std::vector<std::int64_t>({2}));
}

// threshold:R/window:W: the mean of the last W imbalances T / T_bound since the last rebalance
// (fewer before W were seen) is compared with R.
TEST(Policy, ThresholdAveragesTheImbalanceOverTheWindow) {
  FakeStep f;
  auto p = make_policy("threshold:1.35/window:3", 100);
  EXPECT_EQ(p->name(), "threshold:1.35/window:3");
  EXPECT_FALSE(p->decide(f.make(1, 100, 1.0, 1, 1, 0)).rebalance);  // mean 1
  EXPECT_FALSE(p->decide(f.make(2, 100, 1.0, 1, 1, 0)).rebalance);  // mean 1
  EXPECT_FALSE(p->decide(f.make(3, 100, 2.0, 1, 1, 0)).rebalance);  // mean 4 / 3 <= 1.35
  // The first sample leaves the window: (1 + 2 + 2) / 3 = 5 / 3.
  const Decision d = p->decide(f.make(4, 100, 2.0, 1, 1, 0));
  EXPECT_TRUE(d.rebalance) << d.reason;
  p->rebalanced(f.make(4, 100, 2.0, 1, 1, 0));
  // After a rebalance the window starts again: 1.3 alone, then (1.3 + 1.5) / 2 = 1.4.
  EXPECT_FALSE(p->decide(f.make(5, 100, 1.3, 1, 1, 0)).rebalance);
  EXPECT_TRUE(p->decide(f.make(6, 100, 1.5, 1, 1, 0)).rebalance);
  // Without the reset, the same samples (2, 2 then 1.3) would have rebalanced at once.
  auto q = make_policy("threshold:1.35/window:3", 100);
  EXPECT_TRUE(q->decide(f.make(1, 100, 1.4, 1, 1, 0)).rebalance);  // one sample is a window
  EXPECT_EQ(f.plans, 0);
}

// threshold:R/cooldown:C: no rebalance within C iterations after one.
TEST(Policy, ThresholdCooldownSuppressesRebalances) {
  FakeStep f;
  auto p = make_policy("threshold:1.35/cooldown:2", 100);
  EXPECT_TRUE(p->decide(f.make(1, 100, 2.0, 1, 1, 0)).rebalance);
  p->rebalanced(f.make(1, 100, 2.0, 1, 1, 0));
  for (std::int64_t k = 2; k <= 3; ++k) {
    const Decision d = p->decide(f.make(k, 100, 2.0, 1, 1, 0));
    EXPECT_FALSE(d.rebalance) << k;
    EXPECT_NE(d.reason.find("cooldown"), std::string::npos) << d.reason;
  }
  EXPECT_TRUE(p->decide(f.make(4, 100, 2.0, 1, 1, 0)).rebalance);
  // A cooldown only delays: below the threshold the answer is no without it too.
  EXPECT_FALSE(p->decide(f.make(5, 100, 1.2, 1, 1, 0)).rebalance);
  // Window and cooldown together, in either order: one canonical name.
  EXPECT_EQ(make_policy("threshold:1.35/cooldown:10/window:5", 100)->name(),
            "threshold:1.35/window:5/cooldown:10");
  // The largest cooldown: no second rebalance ever (k + C saturates, never wraps).
  auto ever = make_policy("threshold:1.35/cooldown:9223372036854775807", 100);
  ever->rebalanced(f.make(5, 100, 2.0, 1, 1, 0));
  EXPECT_FALSE(ever->decide(f.make(99, 100, 2.0, 1, 1, 0)).rebalance);
}

// With the defaults (W = 1, C = 0) the windowed threshold is threshold:R.
TEST(Policy, ThresholdDefaultsAreThePlainThreshold) {
  FakeStep f;
  auto plain = make_policy("threshold:1.2", 1000);
  auto spelled = make_policy("threshold:1.2/window:1/cooldown:0", 1000);
  EXPECT_EQ(spelled->name(), "threshold:1.2");
  for (std::int64_t k = 1; k < 200; ++k) {
    const double time = 1.0 + static_cast<double>((k * 37) % 50) / 100.0;  // 1 to 1.49
    const Step s = f.make(k, 1000, time, 1, 1, 0);
    const Decision a = plain->decide(s), b = spelled->decide(s);
    EXPECT_EQ(a.rebalance, b.rebalance) << k;
    EXPECT_EQ(a.reason, b.reason) << k;
    if (a.rebalance) plain->rebalanced(s), spelled->rebalanced(s);
  }
}

TEST(Policy, RefusesMalformedWindowsAndCooldowns) {
  for (const char* bad :
       {"threshold:1.35/", "threshold:1.35//window:2", "threshold:/window:2",
        "threshold:0.5/window:2", "threshold:1.35/window",
        "threshold:1.35/window:", "threshold:1.35/window:0", "threshold:1.35/window:-1",
        "threshold:1.35/window:1.5", "threshold:1.35/window:2/window:3",
        "threshold:1.35/cooldown:-1", "threshold:1.35/cooldown:x",
        "threshold:1.35/cooldown:1/cooldown:1", "threshold:1.35/foo:3", "threshold:1.35/Window:3",
        "threshold:1.35 /window:3", "threshold:1.35/window:99999999999999999999"}) {
    try {
      make_policy(bad, 10);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "policy") << bad;
    }
  }
}

TEST(Policy, RefusesMalformedNames) {
  for (const char* bad : {"",
                          "sometimes",
                          "at:",
                          "at:0",
                          "at:3,2",
                          "at:2,2",
                          "at:10",
                          "at:1,x",
                          "at:-1",
                          "at:1,",
                          "every:",
                          "every:0",
                          "every:-2",
                          "every:1.5",
                          "threshold:",
                          "threshold:0.9",
                          "threshold:nan",
                          "threshold:inf",
                          "threshold:1e400",
                          "never:1",
                          "cost-benefit:2",
                          "oracle",
                          "stable-horizon:",
                          "stable-horizon:0",
                          "stable-horizon:-1",
                          "replay:2",
                          "at:99999999999999999999"}) {
    try {
      make_policy(bad, 10);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "policy") << bad;
    }
  }
  EXPECT_NO_THROW(make_policy("at:1,9", 10));
  EXPECT_NO_THROW(make_policy("threshold:1", 10));
  EXPECT_NO_THROW(make_policy("stable-horizon", 10));
  EXPECT_NO_THROW(make_policy("replay", 10));
}

}  // namespace
}  // namespace redist::balance
