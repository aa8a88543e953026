#include "redist/balance/advise.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"
#include "redist/ring/validate.hpp"

namespace redist::balance {
namespace {

TEST(Advise, FollowsCostBenefitAndItsScheduleIsValid) {
  std::mt19937_64 rng(3);
  int yes = 0, no = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    AdviseInput in;
    const std::size_t p = 2 + rng() % 9;
    in.ring.bidirectional = trial % 4 != 0;
    for (std::size_t i = 0; i < p; ++i) {
      in.ring.cost_next.push_back(0.01 + (rng() % 1000) / 100.0);
      if (in.ring.bidirectional) in.ring.cost_prev.push_back(0.01 + (rng() % 1000) / 100.0);
      in.loads.push_back(trial % 7 == 0 ? 0 : static_cast<std::int64_t>(rng() % 200));
      in.speeds.push_back(1.0 + (rng() % 100));
    }
    if (trial % 11 == 0) in.loads.assign(p, 0), in.loads[0] = 1000;  // one heavy processor
    in.remaining_iterations = static_cast<std::int64_t>(rng() % 50);
    const Advice a = advise(in);
    std::int64_t items = 0;
    for (std::int64_t v : in.loads) items += v;
    ASSERT_EQ(a.targets, balanced_targets(items, in.speeds));
    EXPECT_DOUBLE_EQ(a.iteration_time, iteration_time(in.loads, in.speeds));
    EXPECT_DOUBLE_EQ(a.balanced_iteration_time, iteration_time(a.targets, in.speeds));
    EXPECT_DOUBLE_EQ(a.predicted_saving, (a.iteration_time - a.balanced_iteration_time) *
                                             static_cast<double>(in.remaining_iterations));
    EXPECT_EQ(a.rebalance, a.predicted_saving > a.plan_makespan);
    const ring::Instance instance = redistribution_instance(in.ring, in.loads, a.targets);
    const CheckResult v = ring::check(instance, a.schedule);
    ASSERT_TRUE(v.valid) << v.reason;
    EXPECT_EQ(a.plan_makespan, a.schedule.makespan);
    (a.rebalance ? yes : no)++;
  }
  EXPECT_GT(yes, 100);
  EXPECT_GT(no, 100);
}

TEST(Advise, AlreadyBalancedMovesNothing) {
  AdviseInput in{{true, {1, 1, 1}, {1, 1, 1}}, {2, 4, 6}, {1, 2, 3}, 100};
  const Advice a = advise(in);
  EXPECT_FALSE(a.rebalance);
  EXPECT_EQ(a.targets, in.loads);
  EXPECT_EQ(a.plan_makespan, 0.0);
  EXPECT_EQ(a.predicted_saving, 0.0);
}

TEST(Advise, RefusesBadInputNamingTheField) {
  const AdviseInput good{{true, {1, 1}, {1, 1}}, {5, 5}, {1, 2}, 10};
  const auto path_of = [](const AdviseInput& in) {
    try {
      advise(in);
    } catch (const InputError& e) {
      return e.path();
    }
    return std::string("accepted");
  };
  AdviseInput in = good;
  in.speeds = {1, 0};
  EXPECT_EQ(path_of(in), "speeds[1]");
  in = good;
  in.speeds = {1, 2, 3};
  EXPECT_EQ(path_of(in), "speeds");
  in = good;
  in.loads = {5, -5};
  EXPECT_EQ(path_of(in), "loads[1]");
  in = good;
  in.remaining_iterations = -1;
  EXPECT_EQ(path_of(in), "remaining_iterations");
  in = good;
  in.ring.cost_next = {1, -1};
  EXPECT_EQ(path_of(in), "ring.cost_next[1]");
  in = good;
  in.remaining_iterations = std::numeric_limits<std::int64_t>::max();
  in.speeds = {1e-300, 1};
  in.loads = {10, 0};
  EXPECT_EQ(path_of(in), "remaining_iterations");
}

}  // namespace
}  // namespace redist::balance
