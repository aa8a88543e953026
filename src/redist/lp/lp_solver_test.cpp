#include "redist/lp/lp_solver.hpp"

#include <gtest/gtest.h>

namespace redist::lp {
namespace {

TEST(LpSolver, TwoVariableMaximumAsMinimum) {
  // max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 3, x, y >= 0: optimum x = 3, y = 1, value 11.
  Model m;
  const int x = m.add_variable(0, 3, -3);
  const int y = m.add_variable(0, kInfinity, -2);
  m.add_row(-kInfinity, {{x, 1}, {y, 1}}, 4);
  m.add_row(-kInfinity, {{x, 1}, {y, 3}}, 6);
  const Result r = make_default_lp_solver()->solve(m);
  ASSERT_EQ(r.status, Status::optimal);
  EXPECT_NEAR(r.objective, -11, 1e-9);
  ASSERT_EQ(r.values.size(), 2u);
  EXPECT_NEAR(r.values[x], 3, 1e-9);
  EXPECT_NEAR(r.values[y], 1, 1e-9);
}

TEST(LpSolver, EqualityAndRangedRowsWithFractionalOptimum) {
  // min t s.t. t >= 2a, t >= 3b, a + b = 5 (a, b >= 0): a = 3, b = 2, t = 6.
  Model m;
  const int t = m.add_variable(-kInfinity, kInfinity, 1);
  const int a = m.add_variable(0, kInfinity);
  const int b = m.add_variable(0, kInfinity);
  m.add_row(0, {{t, 1}, {a, -2}}, kInfinity);
  m.add_row(0, {{t, 1}, {b, -3}}, kInfinity);
  m.add_row(5, {{a, 1}, {b, 1}}, 5);
  Result r = make_clp_solver()->solve(m);
  ASSERT_EQ(r.status, Status::optimal);
  EXPECT_NEAR(r.objective, 6, 1e-9);
  EXPECT_NEAR(r.values[a], 3, 1e-9);
  EXPECT_NEAR(r.values[b], 2, 1e-9);
  m.add_row(1.2, {{a, 1}, {b, -1}}, 1.5);  // a - b in [1.2, 1.5]
  r = make_clp_solver()->solve(m);
  ASSERT_EQ(r.status, Status::optimal);
  // a - b >= 1.2 with a + b = 5: a >= 3.1, so t = 2a = 6.2 at a = 3.1, b = 1.9.
  EXPECT_NEAR(r.objective, 6.2, 1e-9);
  EXPECT_NEAR(r.values[a], 3.1, 1e-9);
  EXPECT_NEAR(r.values[b], 1.9, 1e-9);
}

TEST(LpSolver, DetectsInfeasible) {
  Model m;
  const int x = m.add_variable(0, kInfinity, 1);
  const int y = m.add_variable(0, kInfinity, 1);
  m.add_row(-kInfinity, {{x, 1}, {y, 1}}, 1);
  m.add_row(3, {{x, 1}, {y, 1}}, kInfinity);
  EXPECT_EQ(make_clp_solver()->solve(m).status, Status::infeasible);
}

TEST(LpSolver, DetectsUnbounded) {
  Model m;
  const int x = m.add_variable(-kInfinity, kInfinity, 1);
  m.add_row(-kInfinity, {{x, 1}}, 10);
  const Result r = make_clp_solver()->solve(m);
  EXPECT_EQ(r.status, Status::unbounded);
  EXPECT_TRUE(r.values.empty());
}

TEST(LpSolver, EmptyModelAndValidation) {
  Model m;
  const Result r = make_clp_solver()->solve(m);
  EXPECT_EQ(r.status, Status::optimal);
  EXPECT_NEAR(r.objective, 0, 1e-12);
  EXPECT_THROW(m.add_variable(2, 1), std::invalid_argument);
  EXPECT_THROW(m.add_row(0, {{7, 1.0}}, 1), std::invalid_argument);
  EXPECT_EQ(make_clp_solver()->name(), "clp");
}

}  // namespace
}  // namespace redist::lp
