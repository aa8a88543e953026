#include "redist/lau/validate.hpp"

#include "redist/lau/planner.hpp"

#include <gtest/gtest.h>

namespace redist::lau {
namespace {

Plan plan_of(std::vector<std::int64_t> flows, Mode mode) {
  Plan p;
  p.flows = std::move(flows);
  p.mode = mode;
  return p;
}

const Stated kNoClaims{false, false, false, false, false, false};

// The typed verdict names the nodes the first violation is about (what check --gantt outlines).
TEST(Check, NamesTheNodeTheFlowsDoNotBalance) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});  // LAU Figure 1
  const CheckResult r = check(in, plan_of({5, 3, 4, 3, 1, 0}, Mode::single), kNoClaims);
  ASSERT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("do not balance node 4"), std::string::npos) << r.reason;
  EXPECT_EQ(r.entries, (std::vector<std::size_t>{4}));
  EXPECT_TRUE(check(in, plan_of({5, 3, 4}, Mode::single), kNoClaims).entries.empty());
}

TEST(Check, NamesTheNodesADeadlockLeavesWaiting) {
  // Every node red: each holds 1 and must send 2 to its successor first (single-send deadlock).
  const Instance red = balanced_instance({1, 1, 1});
  const CheckResult single = check(red, plan_of({2, 2, 2}, Mode::single), kNoClaims);
  ASSERT_FALSE(single.valid);
  EXPECT_NE(single.reason.find("deadlocks in single-send mode"), std::string::npos);
  EXPECT_EQ(single.entries, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(check(red, plan_of({2, 2, 2}, Mode::multi), kNoClaims).valid);
  // No load at all: a circulation deadlocks in multi-send mode too; every node owes and waits.
  const Instance empty = balanced_instance({0, 0, 0, 0});
  const CheckResult multi = check(empty, plan_of({1, 1, 1, 1}, Mode::multi), kNoClaims);
  ASSERT_FALSE(multi.valid);
  EXPECT_NE(multi.reason.find("deadlocks in multi-send mode"), std::string::npos) << multi.reason;
  EXPECT_EQ(multi.entries, (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(Check, AWrongClaimNamesNoNode) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});
  Plan p = plan_of({5, 3, 4, 3, 2, 0}, Mode::single);
  p.h = 0;
  p.t_single = 4;  // the flows take 5 steps
  const CheckResult r = check(in, p, {true, false, false, false});
  ASSERT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("t_single is 4 but the flows give 5"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.entries.empty());
}

// A stated lower bound may not exceed the plan's time, and `optimal: true` must meet it; every
// planner's plan passes with all its claims.
TEST(Check, LowerBoundAndOptimalityClaims) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});  // LAU Figure 1
  for (const char* algorithm : {"optimal", "linear", "traffic"}) {
    for (const Mode mode : {Mode::single, Mode::multi}) {
      const Plan p = plan(in, {algorithm, mode});
      ASSERT_GT(p.lower_bound, 0);
      EXPECT_TRUE(check(in, p).valid) << algorithm << " " << check(in, p).reason;
      Plan above = p;
      above.lower_bound = p.makespan + 1;
      EXPECT_NE(check(in, above).reason.find("lower_bound is"), std::string::npos);
      Plan claimed = p;
      claimed.lower_bound = p.makespan - 1;
      claimed.optimal = true;
      if (p.makespan > 1) {
        EXPECT_NE(check(in, claimed).reason.find("optimal is true"), std::string::npos);
      }
      EXPECT_TRUE(check(in, claimed, kNoClaims).valid);  // claims not stated: not compared
    }
  }
}

}  // namespace
}  // namespace redist::lau
