#include "redist/star/bba.hpp"

#include <random>

#include <gtest/gtest.h>

#include "redist/star/exact.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/star_checks.hpp"

namespace redist::star {
namespace {

using testkit::expect_valid_star;

TEST(StarBba, TraceOfSection42) {
  // STAR §4.2: BBA reaches 14 (optimum 13); P1 sends four tasks, in the paper to P2, P4, P2, P4.
  // For the fourth task P3 and P4 tie (both would finish at 14) and Algorithm 1's tie rule
  // (smallest end: P3 ends at 4, P4 at 10) picks P3; the paper's trace picked P4. Same makespan.
  const Instance in{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}};
  const Schedule s = plan_bba(in);
  expect_valid_star(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 14);
  ASSERT_EQ(s.transfers.size(), 4u);
  const std::vector<std::int64_t> to{1, 3, 1, 2};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(s.transfers[k].from, 0);
    EXPECT_EQ(s.transfers[k].to, to[k]);
  }
}

TEST(StarBba, EdgeCases) {
  for (const Instance& in : {Instance{{1}, {1}, {5}}, Instance{{1, 1}, {1, 1}, {0, 0}},
                             Instance{{1, 1}, {1, 1}, {3, 3}}, Instance{{1, 1}, {1, 1}, {1, 0}}}) {
    const Schedule s = plan_bba(in);
    expect_valid_star(in, s);
    EXPECT_TRUE(s.transfers.empty());
  }
  // Huge counts: 2^40 tasks on one of two workers, the other idle and as fast: moves stop when
  // balanced, the times stay exact integers.
  const Instance big{{1, 1}, {1, 1}, {1000000, 0}};
  const Schedule s = plan_bba(big);
  expect_valid_star(big, s);
  EXPECT_DOUBLE_EQ(s.makespan, 500001);
}

TEST(StarBba, EqualsExactOnHomogeneousPlatforms) {
  std::mt19937_64 rng(1);
  const RandomShape tiny{1, 6, 0, 14};
  for (int trial = 0; trial < 3000; ++trial) {
    Instance in = random_instance(rng, {true, true, Range::general}, tiny);
    in.c.assign(in.workers(), 1 + static_cast<double>(rng() % 5));
    in.w.assign(in.workers(), 1 + static_cast<double>(rng() % 5));
    const Schedule s = plan_bba(in);
    expect_valid_star(in, s);
    EXPECT_DOUBLE_EQ(s.makespan, plan_exact(in).makespan) << "trial " << trial;
  }
}

TEST(StarBba, ValidOnRandomHeterogeneousPlatforms) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 3000; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 12, 0, 300});
    const Schedule s = plan_bba(in);
    expect_valid_star(in, s);
    EXPECT_LE(s.makespan, no_transfer_schedule(in, "").makespan);
  }
}

}  // namespace
}  // namespace redist::star
