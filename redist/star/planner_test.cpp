#include "redist/star/planner.hpp"

#include <random>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"

namespace redist::star {
namespace {

TEST(StarPlanner, BestAndBoundsOnRandomInstances) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 600; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 5, 0, 12});
    const Schedule best = plan_star(in, "best");
    ASSERT_TRUE(validate_schedule(in, best).valid);
    const Schedule exact = plan_star(in, "exact");
    for (const char* name : {"bba", "mbbsa", "rbsa"}) {
      const Schedule s = plan_star(in, name);
      ASSERT_TRUE(validate_schedule(in, s).valid) << name;
      EXPECT_LE(best.makespan, s.makespan);
      EXPECT_LE(*s.lower_bound, exact.makespan * (1 + 1e-12)) << name;
      if (*s.optimal) {
        EXPECT_DOUBLE_EQ(s.makespan, exact.makespan) << name << " " << trial;
      }
    }
  }
}

TEST(StarPlanner, RefusesTooManyTasks) {
  EXPECT_THROW(plan_star(Instance{{1, 1}, {1, 1}, {kMaxPlannedTasks, 1}}, "bba"), InputError);
}

TEST(StarPlanner, UnknownAlgorithm) {
  EXPECT_THROW(plan_star(Instance{{1}, {1}, {1}}, "fifo"), InputError);
}

TEST(StarPlanner, ComputationLowerBound) {
  // 5 tasks, w = 1 and 2: by M = 4 at most 4 + 2 = 6 >= 5; by 3: 3 + 1 = 4 < 5.
  EXPECT_DOUBLE_EQ(computation_lower_bound(Instance{{1, 1}, {1, 2}, {5, 0}}), 4);
  EXPECT_DOUBLE_EQ(computation_lower_bound(Instance{{1, 1}, {1, 2}, {0, 0}}), 0);
}

}  // namespace
}  // namespace redist::star
