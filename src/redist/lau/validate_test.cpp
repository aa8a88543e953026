#include "redist/lau/validate.hpp"

#include "redist/lau/planner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_lau.hpp"

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

// The ring and the flows rotated by r: node i becomes node i - r.
Instance rotated(const Instance& in, std::size_t r) {
  Instance out = in;
  std::rotate(out.loads.begin(), out.loads.begin() + static_cast<std::ptrdiff_t>(r),
              out.loads.end());
  std::rotate(out.targets.begin(), out.targets.begin() + static_cast<std::ptrdiff_t>(r),
              out.targets.end());
  return out;
}

Plan rotated(const Plan& p, std::size_t r) {
  Plan out = p;
  std::rotate(out.flows.begin(), out.flows.begin() + static_cast<std::ptrdiff_t>(r),
              out.flows.end());
  return out;
}

// The ring and the flows mirrored: node i becomes node n - 1 - i, so the link i -> i + 1 becomes
// the link n - 2 - i -> n - 1 - i, run the other way.
Instance mirrored(const Instance& in) {
  Instance out = in;
  std::reverse(out.loads.begin(), out.loads.end());
  std::reverse(out.targets.begin(), out.targets.end());
  return out;
}

Plan mirrored(const Plan& p) {
  Plan out = p;
  const std::size_t n = p.flows.size();
  for (std::size_t j = 0; j < n; ++j) out.flows[j] = -p.flows[(2 * n - 2 - j) % n];
  return out;
}

// A plan has no pieces to reorder (flows[i] belongs to link i), so the verdict's independence of
// the plan's order is that of the ring's labels: every plan of every algorithm in both modes is
// valid unless it deadlocks, and the ring rotated gives the same verdict and time with every claim
// but h (which counts from node 0); mirrored, the same verdict without the time claims (a node
// splits what it holds right link first). So do the plans with one flow changed by one (the
// nodes at its ends then unbalanced).
TEST(Check, EveryPlannersPlanGetsOneVerdictWhateverTheLabels) {
  std::mt19937_64 rng(43);
  testkit::RandomLauOptions o;
  o.n_max = 30;
  const Stated rotation{true, true, false, true, true, true};
  const Stated mirror{false, false, false, true, false, false};
  int compared = 0, deadlocked = 0;
  for (int trial = 0; trial < testkit::random_cases(300); ++trial) {
    o.random_targets = trial % 2 == 1;
    const Instance in = testkit::random_lau(rng, o);
    for (const auto& a : algorithm_names()) {
      for (const Mode mode : {Mode::single, Mode::multi}) {
        const Plan p = plan(in, {a.name, mode});
        const CheckResult v = check(in, p);
        const bool deadlocks = !std::isfinite(p.makespan);
        EXPECT_EQ(v.valid, !deadlocks) << a.name << " trial " << trial << ": " << v.reason;
        deadlocked += deadlocks;
        const Plan broken = [&] {
          Plan b = p;
          ++b.flows[rng() % b.flows.size()];
          return b;
        }();
        for (const Plan* q : {&p, &broken}) {
          const CheckResult r = check(in, *q, rotation);
          const std::size_t by = 1 + rng() % (in.size() - 1);
          const CheckResult turned = check(rotated(in, by), rotated(*q, by), rotation);
          EXPECT_EQ(turned.valid, r.valid) << a.name << " trial " << trial;
          EXPECT_EQ(turned.makespan, r.makespan) << a.name << " trial " << trial;
          EXPECT_EQ(check(mirrored(in), mirrored(*q), mirror).valid, check(in, *q, mirror).valid)
              << a.name << " trial " << trial;
        }
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, testkit::random_cases(300) * 8);
  EXPECT_LT(deadlocked, compared / 4);
}

}  // namespace
}  // namespace redist::lau
