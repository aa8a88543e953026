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
  const CheckResult r = check_solution(three(), {0, 1, 2}, {4.0 / 7, 2.0 / 7, 1.0 / 7}, 6.0);
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_NEAR(r.t_step, 6.0, 1e-12);
  // Without a claim, any shares summing to 1 are valid; T_step recomputed.
  const CheckResult r2 = check_solution(three(), {2}, {1.0}, std::nullopt);
  EXPECT_TRUE(r2.valid);
  EXPECT_DOUBLE_EQ(r2.t_step, 28.0);
}

TEST(Check, RejectsBrokenSolutions) {
  const Cluster cl = three();
  EXPECT_FALSE(check_solution(cl, {}, {}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, 3}, {0.5, 0.5}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, -1}, {0.5, 0.5}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, 0}, {0.5, 0.5}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, 1}, {0.5}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, 1}, {0.6, 0.5}, std::nullopt).valid);
  EXPECT_FALSE(check_solution(cl, {0, 1}, {1.5, -0.5}, std::nullopt).valid);
  const CheckResult wrong = check_solution(cl, {0, 1, 2}, {4.0 / 7, 2.0 / 7, 1.0 / 7}, 6.1);
  EXPECT_FALSE(wrong.valid);
  EXPECT_NE(wrong.reason.find("t_step"), std::string::npos);
}

}  // namespace
}  // namespace redist::slicering
