#include "redist/slicering/tsp.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/shares.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/random_cluster.hpp"

namespace redist::slicering {
namespace {

void expect_valid(const Cluster& cl, const Solution& s) {
  const std::vector<long long> ring(s.ring.begin(), s.ring.end());
  const CheckResult r = check_solution(cl, ring, s.alpha, s.makespan);
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(Tsp, EqualsExactOnThePublishedPlatforms) {
  for (const char* name : {"lyon", "strasbourg"}) {
    Cluster cl = testing::platform(name);
    for (double W : {1000.0, 100000.0}) {
      cl.W = W;
      const Solution t = plan_tsp(cl);
      expect_valid(cl, t);
      EXPECT_EQ(t.ring.size(), cl.size());
      const Solution e = plan_exact(cl, cl.size());
      EXPECT_NEAR(t.makespan, e.makespan, 1e-9 * e.makespan) << name << " W " << W;
      EXPECT_LE(*t.tour_lower_bound, *t.tour_cost * (1 + 1e-12));
      EXPECT_LE(*t.lower_bound, t.makespan * (1 + 1e-12));
    }
  }
}

TEST(Tsp, MatchesHeldKarpOnRandomSmallClusters) {
  std::mt19937_64 rng(17);
  int matched = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t p = 2 + trial % 11;
    const Cluster cl = testing::random_cluster(rng, p, 1e4, 1.0, trial % 2);
    const Solution t = plan_tsp(cl);
    expect_valid(cl, t);
    const Solution e = plan_exact(cl, p);
    EXPECT_GE(t.makespan, e.makespan * (1 - 1e-12));
    EXPECT_LE(*t.tour_lower_bound, *t.tour_cost * (1 + 1e-12));
    matched += t.makespan <= e.makespan * (1 + 1e-9);
  }
  EXPECT_EQ(matched, 40);
}

TEST(Tsp, LargeRandomIsValidWithSmallGap) {
  std::mt19937_64 rng(19);
  const Cluster cl = testing::random_cluster(rng, 300, 1e6, 1.0, true);
  const Solution t = plan_tsp(cl);
  expect_valid(cl, t);
  EXPECT_LE(*t.tour_lower_bound, *t.tour_cost);
  EXPECT_LT(*t.tour_cost / *t.tour_lower_bound - 1.0, 0.10);
}

TEST(Tsp, RefusesAForcedSmallerRing) {
  std::mt19937_64 rng(1);
  EXPECT_THROW(plan_tsp(testing::random_cluster(rng, 5, 1.0, 1.0), 3), InputError);
}

}  // namespace
}  // namespace redist::slicering
