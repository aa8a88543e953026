#include "redist/star/planner.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/star_brute_force.hpp"
#include "redist/testing/star_checks.hpp"

namespace redist::star {
namespace {

TEST(StarPlanner, BestAndBoundsOnRandomInstances) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 600; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 5, 0, 12});
    const Schedule best = plan(in, {"best"});
    ASSERT_TRUE(check(in, best).valid);
    const Schedule exact = plan(in, {"exact"});
    for (const char* name : {"bba", "mbbsa", "mbbsa-lazy", "rbsa"}) {
      const Schedule s = plan(in, {name});
      ASSERT_TRUE(check(in, s).valid) << name;
      EXPECT_LE(best.makespan, s.makespan);
      EXPECT_LE(s.lower_bound, exact.makespan * (1 + 1e-12)) << name;
      if (s.optimal) {
        EXPECT_DOUBLE_EQ(s.makespan, exact.makespan) << name << " " << trial;
      }
    }
  }
}

// Every plan whose makespan is the optimum says so, and no other does.
TEST(StarPlanner, OptimalPlansAreCertifiedOnSmallPlatforms) {
  std::mt19937_64 rng(14);
  for (int trial = 0; trial < testkit::random_cases(2000); ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {2, 4, 0, 6});
    const double optimum = testkit::star_brute_force_optimum(in);
    for (const char* name : {"bba", "mbbsa", "mbbsa-lazy", "rbsa", "exact", "best"}) {
      const Schedule s = plan(in, {name});
      testkit::expect_valid_star(in, s);
      ASSERT_LE(s.lower_bound, optimum * (1 + 1e-12)) << name << " " << trial;
      const bool at_optimum = s.makespan <= optimum * (1 + 1e-12);
      ASSERT_EQ(s.optimal, at_optimum) << name << " " << trial;
      if (s.optimal) {
        ASSERT_EQ(s.lower_bound, s.makespan) << name;
      }
    }
    ASSERT_DOUBLE_EQ(plan(in, {"best"}).makespan, optimum);
  }
}

TEST(StarPlanner, BestReportsExactsProof) {
  // The §4.2 trace: BBA 14, MBBSA 13 (not proven by a theorem: computation heterogeneous).
  const Schedule s = plan(Instance{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}}, {"best"});
  EXPECT_DOUBLE_EQ(s.makespan, 13);
  EXPECT_TRUE(s.optimal);
  EXPECT_EQ(s.lower_bound, 13);
  EXPECT_EQ(s.notes.back(), "best of bba, mbbsa, rbsa, exact: " + s.algorithm);
}

TEST(StarPlanner, RefusesTooManyTasks) {
  EXPECT_THROW(plan(Instance{{1, 1}, {1, 1}, {kMaxPlannedTasks, 1}}, {"bba"}), InputError);
}

TEST(ResourceLimits, RbsaRefusedBeyondItsLimit) {
  const Instance in{{1, 1}, {1, 1}, {kMaxRbsaTasks + 1, 0}};
  EXPECT_THROW(plan(in, {"rbsa"}), InputError);
}

TEST(StarPlanner, UnknownAlgorithm) {
  EXPECT_THROW(plan(Instance{{1}, {1}, {1}}, {"fifo"}), InputError);
}

TEST(Overflow, StarRefusesTimesBeyondADoubleUpFront) {
  // Each loads[i] * w[i] is finite, but moving the tasks through the master is not.
  EXPECT_THROW(validate_instance(Instance{{1e308, 1e308}, {1, 1}, {3, 0}}), InputError);
  EXPECT_THROW(validate_instance(Instance{{1, 1e308}, {1e308, 1}, {1, 2}}), InputError);
  try {
    validate_instance(Instance{{1, 1e308}, {1, 1}, {0, 2}});
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "c[1]");
  }
}

TEST(Overflow, StarExtremeButRepresentableInstancesGiveFiniteSchedules) {
  // Tiny and huge (but not overflowing) values, m = 1, loads near the 2^53 limit with tiny w.
  const std::vector<Instance> instances{
      {{1e-300, 1e-300}, {1e-300, 1e-300}, {7, 0}},
      {{1e300, 3e300}, {2e300, 1e300}, {3, 0}},
      {{1e-300, 5e-299}, {1e-298, 2e-300}, {1, 1}},
      {{1}, {1}, {5}},
      {{1e-300, 1e-300}, {1e-300, 1e-300}, {1 << 20, 0}},
      {{1e100, 1e100, 1e100}, {1e105, 1e105, 1e97}, {1000, 0, 0}},
  };
  for (const Instance& in : instances) {
    ASSERT_NO_THROW(validate_instance(in));
    const bool small = in.loads[0] < 100000;
    for (const char* name : {"bba", "mbbsa", "rbsa", "best"}) {
      if (!small && std::string(name) != "bba") continue;
      const Schedule s = plan(in, {name});
      EXPECT_TRUE(std::isfinite(s.makespan)) << name;
      EXPECT_TRUE(std::isfinite(s.lower_bound.value())) << name;
      EXPECT_GT(s.lower_bound, 0) << name;
      for (double f : s.finish) EXPECT_TRUE(std::isfinite(f)) << name;
      const auto r = check(in, s);
      EXPECT_TRUE(r.valid) << name << ": " << r.reason;
    }
  }
}

TEST(Overflow, StarRefusesDurationsBelowTheTimeResolution) {
  // c[0] = 1e-300 next to times near 1e300: adding it to any time leaves the time unchanged.
  try {
    validate_instance(Instance{{1e-300, 1e300}, {1e300, 1e-300}, {1, 1}});
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "c[0]");
  }
}

TEST(Overflow, ComputationLowerBoundOfHugeTimes) {
  // Total tasks times min w overflows; the bound itself (1e308) does not.
  const double bound = computation_lower_bound(Instance{{1, 1}, {1e308, 1e308}, {1, 1}});
  EXPECT_TRUE(std::isfinite(bound));
  EXPECT_DOUBLE_EQ(bound, 1e308);
}

TEST(SlowPath, BestSkipsHeuristicsThatCannotBeatAProvenOptimum) {
  // Fully homogeneous: BBA is optimal (Proposition 1), so MBBSA and R-BSA cannot be strictly
  // better and are not run.
  const Schedule s = plan(Instance{{1, 1, 1}, {2, 2, 2}, {30, 0, 0}}, {"best"});
  EXPECT_EQ(s.algorithm, "bba");
  ASSERT_EQ(s.notes.size(), 4u);
  EXPECT_EQ(s.notes[0], "mbbsa not run: bba is proven optimal");
  EXPECT_EQ(s.notes[1], "rbsa not run: bba is proven optimal");
  EXPECT_EQ(s.notes[2], "exact not run: bba is proven optimal");
  EXPECT_EQ(s.notes[3], "best of bba, mbbsa, rbsa, exact: bba");
}

TEST(StarPlanner, ComputationLowerBound) {
  // 5 tasks, w = 1 and 2: by M = 4 at most 4 + 2 = 6 >= 5; by 3: 3 + 1 = 4 < 5.
  EXPECT_DOUBLE_EQ(computation_lower_bound(Instance{{1, 1}, {1, 2}, {5, 0}}), 4);
  EXPECT_DOUBLE_EQ(computation_lower_bound(Instance{{1, 1}, {1, 2}, {0, 0}}), 0);
}

}  // namespace
}  // namespace redist::star
