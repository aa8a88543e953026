#include "redist/star/mbbsa.hpp"

#include <random>

#include <gtest/gtest.h>

#include "redist/star/exact.hpp"
#include "redist/star/moore.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/star_checks.hpp"

namespace redist::star {
namespace {

using testkit::expect_valid_star;

TEST(StarMoore, TextbookExample) {
  // Processing 2, 3, 1, 4 with deadlines 2, 4, 5, 7 (sorted): at most 3 on time.
  const std::vector<MooreJob> jobs{{2, 2}, {3, 4}, {1, 5}, {4, 7}};
  const auto on_time = moore_hodgson(jobs, 0);
  EXPECT_EQ(on_time.size(), 2u + 0u + (on_time.size() == 3 ? 1u : 0u));
  double t = 0;
  for (std::size_t k : on_time) {
    t += jobs[k].processing;
    EXPECT_LE(t, jobs[k].deadline);
  }
  // Brute force over subsets.
  std::size_t best = 0;
  for (unsigned mask = 0; mask < 16; ++mask) {
    double time = 0;
    bool ok = true;
    std::size_t count = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      if (!(mask >> k & 1)) continue;
      time += jobs[k].processing;
      ok = ok && time <= jobs[k].deadline;
      ++count;
    }
    if (ok) best = std::max(best, count);
  }
  EXPECT_EQ(on_time.size(), best);
}

TEST(StarMbbsa, TraceOfSection42) {
  const Instance in{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}};
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 13);
  EXPECT_TRUE(s.optimal);
  EXPECT_FALSE(mbbsa_decide(in, 12.999).has_value());
  EXPECT_TRUE(mbbsa_decide(in, 13).has_value());
  EXPECT_FALSE(mbbsa_decide(in, 13, /*strict=*/true).has_value());
}

TEST(StarMbbsa, EqualsExactOnHomogeneousLinks) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 3000; ++trial) {
    Instance in = random_instance(rng, {true, false, Range::general}, {1, 6, 0, 14});
    in.c.assign(in.workers(), 1 + static_cast<double>(rng() % 6));
    for (double& w : in.w) w = 1 + static_cast<double>(rng() % 9);
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    const Schedule e = plan_exact(in);
    ASSERT_DOUBLE_EQ(s.makespan, e.makespan) << "trial " << trial;
    EXPECT_TRUE(s.optimal) << "trial " << trial;
    // Theorem 3: the decision is exactly "a schedule of makespan <= M exists".
    EXPECT_TRUE(mbbsa_decide(in, e.makespan).has_value());
    if (e.makespan > 0) {
      EXPECT_FALSE(mbbsa_decide(in, e.makespan, true).has_value());
    }
  }
}

TEST(StarMbbsa, ValidOnRandomPlatforms) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 2000; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 12, 0, 300});
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    EXPECT_LE(s.makespan, no_transfer_schedule(in, "").makespan);
  }
}

TEST(StarMbbsa, EdgeCases) {
  for (const Instance& in : {Instance{{1}, {1}, {5}}, Instance{{1, 1}, {1, 1}, {0, 0}},
                             Instance{{1, 1}, {1, 1}, {3, 3}}, Instance{{2, 2}, {1, 1}, {1, 0}}}) {
    const Schedule s = plan_mbbsa(in);
    expect_valid_star(in, s);
    EXPECT_TRUE(s.transfers.empty());
    EXPECT_TRUE(s.optimal);
  }
  // Non-integral times: still valid, and on homogeneous links still equal to exact.
  const Instance in{{0.3, 0.3, 0.3}, {0.7, 1.1, 0.9}, {9, 0, 2}};
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_NEAR(s.makespan, plan_exact(in).makespan, 1e-9);
}

TEST(StarMbbsa, LargeCountsAreFast) {
  Instance in;
  for (int i = 0; i < 100; ++i) {
    in.c.push_back(3);
    in.w.push_back(1 + i % 7);
    in.loads.push_back(i == 0 ? 1000000 : 0);
  }
  const Schedule s = plan_mbbsa(in);
  expect_valid_star(in, s);
  EXPECT_TRUE(s.optimal);
  // Worker 0 computes one task per unit, the master forwards one per 3 units at most.
  EXPECT_GE(s.makespan, 1000000 / (1 + 1.0 / 3));
  EXPECT_LE(s.makespan, 1000000 / (1 + 1.0 / 3) + 10);
}

TEST(SlowPath, MbbsaHeterogeneousLinksScansFewDeadlines) {
  // Heterogeneous links, 200 workers, 10^5 tasks: each decision used to build and sort every
  // receiver's deadlines (sum of cap_r); the lazy merge stops once L_send are on time (here
  // after about a quarter of them).
  std::mt19937_64 rng(2006);
  const Instance in =
      random_instance(rng, {false, false, Range::general}, {200, 200, 100000, 100000});
  MbbsaWork work;
  const Schedule s = plan_mbbsa(in, &work);
  expect_valid_star(in, s);
  ASSERT_GT(work.decisions, 10);
  EXPECT_LT(work.deadlines_scanned * 3, work.deadlines_available)
      << work.deadlines_scanned << " of " << work.deadlines_available;
}

}  // namespace
}  // namespace redist::star
