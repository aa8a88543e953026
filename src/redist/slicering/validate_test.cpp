#include "redist/slicering/validate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "redist/slicering/planner.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_cluster.hpp"

namespace redist::slicering {
namespace {

Cluster three() {
  Cluster cl;
  cl.w = {1, 2, 4};
  cl.c.assign(9, 1.0);
  cl.W = 7.0;
  cl.H = 1.0;
  return cl;
}

TEST(Check, AcceptsAndRecomputes) {
  const CheckResult r =
      check(three(), {0, 1, 2}, {4.0 / 7, 2.0 / 7, 1.0 / 7}, Claims{6.0, {}, {}, {}});
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_NEAR(r.makespan, 6.0, 1e-12);
  // Without a claim, any shares summing to 1 are valid; T_step recomputed.
  const CheckResult r2 = check(three(), {2}, {1.0}, Claims{std::nullopt, {}, {}, {}});
  EXPECT_TRUE(r2.valid);
  EXPECT_DOUBLE_EQ(r2.makespan, 28.0);
}

TEST(Check, RejectsBrokenSolutions) {
  const Cluster cl = three();
  EXPECT_FALSE(check(cl, {}, {}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, 3}, {0.5, 0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, -1}, {0.5, 0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, 0}, {0.5, 0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, 1}, {0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, 1}, {0.6, 0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  EXPECT_FALSE(check(cl, {0, 1}, {1.5, -0.5}, Claims{std::nullopt, {}, {}, {}}).valid);
  const CheckResult wrong =
      check(cl, {0, 1, 2}, {4.0 / 7, 2.0 / 7, 1.0 / 7}, Claims{6.1, {}, {}, {}});
  EXPECT_FALSE(wrong.valid);
  EXPECT_NE(wrong.reason.find("t_step"), std::string::npos);
}

// The typed verdict names the ring positions the first violation is about.
TEST(Check, NamesTheRingPositionsOfTheViolation) {
  const Cluster cl = three();
  const Claims none{std::nullopt, {}, {}, {}};
  using Entries = std::vector<std::size_t>;
  EXPECT_EQ(check(cl, {0, 3}, {0.5, 0.5}, none).entries, (Entries{1}));
  EXPECT_EQ(check(cl, {2, 0, 1, 0}, {0.25, 0.25, 0.25, 0.25}, none).entries, (Entries{1, 3}));
  EXPECT_EQ(check(cl, {0, 1, 2}, {0.5, 0.75, -0.25}, none).entries, (Entries{2}));
  EXPECT_TRUE(check(cl, {}, {}, none).entries.empty());
  EXPECT_TRUE(check(cl, {0, 1}, {0.6, 0.5}, none).entries.empty());  // the sum
  EXPECT_TRUE(
      check(cl, {0, 1, 2}, {4.0 / 7, 2.0 / 7, 1.0 / 7}, Claims{6.1, {}, {}, {}}).entries.empty());
}

TEST(StrictCheck, MakespanAndBoundClaimsAreCompared) {
  const Cluster cl = three();
  const std::vector<long long> ring{0, 1, 2};
  const std::vector<double> alpha{4.0 / 7, 2.0 / 7, 1.0 / 7};  // T_step 6
  EXPECT_TRUE(check(cl, ring, alpha, Claims{6.0, 6.0, 6.0, true}).valid);
  EXPECT_TRUE(check(cl, ring, alpha, Claims{6.0, 6.0, 5.0, false}).valid);
  const CheckResult makespan = check(cl, ring, alpha, Claims{6.0, 6.5, {}, {}});
  EXPECT_FALSE(makespan.valid);
  EXPECT_NE(makespan.reason.find("makespan"), std::string::npos);
  EXPECT_FALSE(check(cl, ring, alpha, Claims{{}, -1.0, {}, {}}).valid);
  const CheckResult bound = check(cl, ring, alpha, Claims{{}, {}, 6.5, {}});
  EXPECT_FALSE(bound.valid);
  EXPECT_NE(bound.reason.find("lower_bound"), std::string::npos);
  const CheckResult optimal = check(cl, ring, alpha, Claims{{}, {}, 5.0, true});
  EXPECT_FALSE(optimal.valid);
  EXPECT_NE(optimal.reason.find("optimal"), std::string::npos);
}

// A ring and its shares as a document gives them.
struct Ring {
  std::vector<long long> members;
  std::vector<double> alpha;
};

// The same ring rotated by r places, and reversed: every member keeps its two neighbours.
Ring rotated(Ring ring, std::size_t r) {
  std::rotate(ring.members.begin(), ring.members.begin() + static_cast<std::ptrdiff_t>(r),
              ring.members.end());
  std::rotate(ring.alpha.begin(), ring.alpha.begin() + static_cast<std::ptrdiff_t>(r),
              ring.alpha.end());
  return ring;
}

Ring reversed(Ring ring) {
  std::reverse(ring.members.begin(), ring.members.end());
  std::reverse(ring.alpha.begin(), ring.alpha.end());
  return ring;
}

// A ring's order is its content (each member's neighbours), so the verdict's independence of the
// order is that of the ring's symmetries: every solution of every algorithm on random clusters is
// valid, and rotated or reversed gives the same verdict and the same T_step; so does each with one
// share raised by a tenth (no longer summing to 1).
TEST(Check, EveryPlannersSolutionGetsOneVerdictRotatedAndReversed) {
  std::mt19937_64 rng(31);
  int compared = 0;
  for (int trial = 0; trial < testkit::random_cases(300); ++trial) {
    const std::size_t p = 1 + static_cast<std::size_t>(trial % 8);
    const Cluster cl = testing::random_cluster(rng, p, std::pow(10.0, double(rng() % 7) - 2.0), 1.0,
                                               trial % 3 == 0);
    for (const char* algorithm : {"auto", "greedy", "tsp", "exact"}) {
      const Solution s = plan(cl, {algorithm});
      Claims claims{std::nullopt, s.makespan, std::nullopt, s.optimal};
      if (s.lower_bound > 0) claims.lower_bound = s.lower_bound;
      Ring ring{{s.ring.begin(), s.ring.end()}, s.alpha};
      Ring raised = ring;
      raised.alpha[rng() % raised.alpha.size()] += 0.1;
      for (const Ring* r : {&ring, &raised}) {
        const CheckResult v = check(cl, r->members, r->alpha, claims);
        EXPECT_EQ(v.valid, r == &ring) << algorithm << " trial " << trial << ": " << v.reason;
        const std::size_t by = rng() % r->members.size();
        for (const Ring& other : {rotated(*r, by), reversed(*r), reversed(rotated(*r, by))}) {
          const CheckResult w = check(cl, other.members, other.alpha, claims);
          EXPECT_EQ(w.valid, v.valid) << algorithm << " trial " << trial;
          EXPECT_EQ(w.makespan, v.makespan) << algorithm << " trial " << trial;
        }
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, testkit::random_cases(300) * 4);
}

}  // namespace
}  // namespace redist::slicering
