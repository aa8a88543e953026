#include "redist/slicering/greedy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "redist/common/error.hpp"

#include "redist/slicering/exact.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/shares.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/random_cluster.hpp"

namespace redist::slicering {
namespace {

TEST(Greedy, ValidNeverBelowExactAndTraceIsExact) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 100; ++trial) {
    const std::size_t p = 1 + trial % 10;
    const Cluster cl =
        testing::random_cluster(rng, p, std::pow(10.0, (rng() % 5) - 1.0), 1.0, trial % 2);
    const GreedyTrace trace = greedy_trace(cl);
    ASSERT_EQ(trace.t_step_by_size.size(), p);
    const Solution& s = trace.best;
    const std::vector<long long> ring(s.ring.begin(), s.ring.end());
    const CheckResult r = check(cl, ring, s.alpha, Claims{s.makespan, {}, {}, {}});
    ASSERT_TRUE(r.valid) << r.reason;
    EXPECT_GE(s.makespan, plan_exact(cl).makespan * (1 - 1e-12));
    double best = 1e300;
    for (double t : trace.t_step_by_size) best = std::min(best, t);
    EXPECT_NEAR(s.makespan, best, 1e-9 * best);
    for (std::size_t q = 1; q <= p; ++q) {
      const Solution forced = plan_greedy(cl, q);
      EXPECT_EQ(forced.ring.size(), q);
      EXPECT_NEAR(forced.makespan, trace.t_step_by_size[q - 1], 1e-9 * forced.makespan);
    }
  }
}

TEST(Greedy, StartsFromTheFastestProcessor) {
  Cluster cl;
  cl.w = {3, 1, 2};
  cl.c.assign(9, 100.0);
  cl.W = 1.0;
  cl.H = 1.0;
  const Solution s = plan_greedy(cl);
  EXPECT_EQ(s.ring, std::vector<std::size_t>{1});
  EXPECT_DOUBLE_EQ(s.makespan, 1.0);
}

// Every candidate time is infinite (H c overflows): the chosen processor must still be one of the
// cluster, never the past-the-end index p (which read and wrote past comm and in_ring).
TEST(MemorySafety, GreedyWithInfiniteCandidateTimes) {
  Cluster cl;
  cl.w = {1, 1, 2};
  cl.c = {0, 1, 1, 1, 0, 1, 1, 1, 0};
  cl.W = 1.0;
  cl.H = 1e308;
  const GreedyTrace trace = greedy_trace(cl);
  ASSERT_EQ(trace.t_step_by_size.size(), 3u);
  const Solution forced = plan_greedy(cl, 3);
  std::vector<std::size_t> ring = forced.ring;
  std::sort(ring.begin(), ring.end());
  EXPECT_EQ(ring, (std::vector<std::size_t>{0, 1, 2}));
}

// The same cluster through the planner is refused up front, naming the capacity that overflows.
TEST(Overflow, GreedyRefusesClustersWhoseTimesOverflow) {
  Cluster cl;
  cl.w = {1, 1, 2};
  cl.c = {0, 1, 1, 1, 0, 1, 1, 1, 0};
  cl.W = 1.0;
  cl.H = 1e308;
  try {
    plan(cl, {"greedy"});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "c[0][1]");
  }
}

TEST(ResourceLimits, GreedyRefusesMoreThanItsProcessorLimit) {
  Cluster cl;
  const std::size_t p = kGreedyMaxProcessors + 1;
  cl.w.assign(p, 1.0);
  cl.c.assign(p * p, 1.0);
  EXPECT_THROW(plan_greedy(cl), InputError);
}

}  // namespace
}  // namespace redist::slicering
