#include "redist/slicering/validate.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace redist::slicering
