#include "redist/dlt/planner.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/dlt/random_instances.hpp"

namespace redist::dlt {
namespace {

// Checks LP 7's constraints and equations 8-9.
void expect_feasible(const Instance& in, Schedule s) {
  const double T = s.makespan;
  const double tol = 1e-7 * std::max(1.0, T);
  double sum = 0;
  for (std::size_t i = 0; i < in.alpha.size(); ++i) {
    EXPECT_LE(std::abs(s.delta[i]), T * in.b[i] + tol);
    EXPECT_GE(s.delta[i], in.alpha[i] - T * in.s[i] - tol);
    sum += s.delta[i];
  }
  EXPECT_NEAR(sum, 0, tol);
  add_transfers(s);
  std::vector<double> sent(in.alpha.size(), 0), received(in.alpha.size(), 0);
  for (const Transfer& t : s.transfers) {
    sent[t.from] += t.amount;
    received[t.to] += t.amount;
    EXPECT_NEAR(t.rate * T, t.amount, tol);
  }
  for (std::size_t i = 0; i < in.alpha.size(); ++i) {
    if (s.delta[i] > 0) {
      EXPECT_NEAR(sent[i], s.delta[i], tol);
    }
    if (s.delta[i] < 0) {
      EXPECT_NEAR(received[i], -s.delta[i], tol);
    }
  }
}

TEST(StarDlt, FastEqualsLp) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.1, 10.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t m = 1 + rng() % 12;
    Instance in;
    for (std::size_t i = 0; i < m; ++i) {
      in.b.push_back(u(rng));
      in.s.push_back(u(rng));
      in.alpha.push_back(rng() % 4 == 0 ? 0.0 : 10 * u(rng));
    }
    const Schedule fast = solve_fast(in), lp = solve_lp(in);
    ASSERT_NEAR(fast.makespan, lp.makespan, 1e-7 * std::max(1.0, lp.makespan)) << trial;
    expect_feasible(in, fast);
    expect_feasible(in, lp);
  }
}

TEST(StarDlt, ClosedFormCases) {
  // Balanced: T = alpha / s everywhere, nothing moves.
  Schedule s = solve_fast({{1, 1}, {1, 1}, {5, 5}});
  EXPECT_DOUBLE_EQ(s.makespan, 5);
  // One loaded worker with a slow link: alpha - T s <= T b  =>  T >= 10 / (1 + 1) = 5, and
  // the other worker can take 5 at speed 1 by T = 5.
  s = solve_fast({{1, 100}, {1, 1}, {10, 0}});
  EXPECT_DOUBLE_EQ(s.makespan, 5);
  // Fast links: the total work bound 10 / 2.
  s = solve_fast({{100, 100}, {1, 1}, {10, 0}});
  EXPECT_DOUBLE_EQ(s.makespan, 5);
  s = solve_fast({{1, 1}, {1, 1}, {0, 0}});
  EXPECT_DOUBLE_EQ(s.makespan, 0);
  add_transfers(s);
  EXPECT_TRUE(s.transfers.empty());
}

TEST(StarDlt, RejectsBadInstances) {
  EXPECT_THROW(validate_instance({{1}, {1}, {}}), InputError);
  EXPECT_THROW(validate_instance({{0}, {1}, {1}}), InputError);
  EXPECT_THROW(validate_instance({{1}, {-1}, {1}}), InputError);
  EXPECT_THROW(validate_instance({{1}, {1}, {-1}}), InputError);
  EXPECT_THROW(validate_instance({{1, 1}, {1}, {1, 1}}), InputError);
  EXPECT_THROW(solver_named("simplex"), InputError);
}

TEST(Overflow, DltRefusesOverflowAndUnderflowUpFront) {
  auto path_of = [](const Instance& in) -> std::string {
    try {
      validate_instance(in);
    } catch (const InputError& e) {
      return e.path();
    }
    return "accepted";
  };
  EXPECT_EQ(path_of({{1, 1}, {1, 1}, {1e308, 1e308}}), "alpha[1]");     // sum of alpha
  EXPECT_EQ(path_of({{9e307, 1e308}, {1, 1}, {1e10, 1e10}}), "s[1]");   // sum of s and b
  EXPECT_EQ(path_of({{1}, {1e-300}, {1e300}}), "alpha[0]");             // alpha / s
  EXPECT_EQ(path_of({{1e300}, {1e300}, {1e-300}}), "alpha[0]");         // makespan underflows
  EXPECT_EQ(path_of({{1, 1}, {1, 1}, {1e308, 0}}), "alpha");            // (m + 1) sum alpha
  EXPECT_EQ(path_of({{1e300, 1}, {1, 1e300}, {1e10, 0}}), "accepted");  // T b overflows, unused
  EXPECT_EQ(path_of({{1e-300, 1e300}, {1e300, 1e-300}, {1, 1}}), "accepted");
}

TEST(Overflow, DltExtremeButRepresentableInstancesGiveFiniteSchedules) {
  const std::vector<Instance> instances{
      {{1e-300, 2e-300}, {3e-300, 1e-300}, {1e-300, 0}},
      {{1e-300, 1e-300}, {1e-300, 1e-300}, {1e-300, 0}},
      {{1e150, 1e150}, {1e150, 1e-150}, {1e150, 0}},
      {{1}, {1}, {4.6e18}},
      {{1e-10, 1e10, 1}, {1e10, 1e-10, 1}, {1e20, 0, 1e-20}},
      {{1e300, 1}, {1, 1e300}, {1e10, 0}},
      {{1, 1e300}, {1, 1e300}, {1e10, 0}},
  };
  for (const Instance& in : instances) {
    ASSERT_NO_THROW(validate_instance(in));
    for (const Solver solver : {Solver::fast, Solver::lp}) {
      Schedule s;
      try {
        s = solve(in, solver);
      } catch (const InputError& e) {
        // CLP cannot resolve values spread over more than 12 orders of magnitude: refused.
        EXPECT_EQ(solver, Solver::lp);
        EXPECT_EQ(e.path(), "solver");
        continue;
      }
      add_transfers(s);
      EXPECT_TRUE(std::isfinite(s.makespan) && s.makespan > 0) << to_string(solver);
      for (double d : s.delta) EXPECT_TRUE(std::isfinite(d)) << to_string(solver);
      for (const Transfer& t : s.transfers) {
        EXPECT_TRUE(std::isfinite(t.amount) && std::isfinite(t.rate)) << to_string(solver);
      }
    }
  }
}

// A worker whose speed dwarfs its bandwidth: alpha - T s cancels to within rounding of T b. The
// deltas stay inside |delta| <= T b and the plan passes the validator.
TEST(Overflow, DltSpeedDwarfingBandwidthKeepsDeltasInTheirBoxes) {
  const Instance in{{4.0, 2.2250738585072014e-308, 2.6239338847095712e+194},
                    {213298357500637.12, 213298357500637.12, 213298357500637.12},
                    {4.915957637494354e+220, 0.0, 0.0}};
  const Schedule fast = solve_fast(in);
  for (std::size_t i = 0; i < in.alpha.size(); ++i) {
    EXPECT_LE(std::abs(fast.delta[i]), fast.makespan * in.b[i]) << i;
  }
  const Schedule plan = dlt::plan(in);
  EXPECT_DOUBLE_EQ(plan.makespan, in.alpha[0] / (in.s[0] + in.b[0]));
}

// The first piece's root (2.6e-20 / 1.7e308) underflows to 0, the piece's right end: the search
// must still go on to the next piece, where T = 2.6e-20 (worker 0 receives everything at rate 1).
TEST(Overflow, DltRootThatUnderflowsDoesNotEndTheSearch) {
  const Instance in{{1.0, 5.189134606021535e+183},
                    {1.7e+308, 5.421910218434488e-125},
                    {0.0, 2.6238138990881898e-20}};
  const Schedule fast = solve_fast(in);
  EXPECT_DOUBLE_EQ(fast.makespan, in.alpha[1] / (in.b[0] + in.s[1]));
  EXPECT_DOUBLE_EQ(fast.delta[0], -fast.delta[1]);
  EXPECT_NO_THROW(dlt::plan(in));
}

// Rates at the smallest normal double are real rates, not rounding slivers: the deltas still sum
// to 0.
TEST(Overflow, DltRatesNearTheSmallestNormalDoubleAreKept) {
  const double tiny = 2.2250738585072014e-308;
  const Instance in{{6.709057343671074e-289, 1.7e+308, 4.4188519375244793e+126},
                    {tiny, tiny, tiny},
                    {7.0048280736773445e-96, 0.0, 0.0}};
  const Schedule fast = solve_fast(in);
  double sum = 0;
  for (double d : fast.delta) sum += d;
  EXPECT_LE(std::abs(sum), 1e-12 * in.alpha[0]);
  EXPECT_LT(fast.delta[1], 0);
  EXPECT_LT(fast.delta[2], 0);
}

// Magnitudes spread over 60 orders: every fast solution stays inside |delta| <= T b, and
// plan either returns a schedule its validator accepted, within 1e-6 of the optimum, or
// refuses the instance as a whole.
TEST(Overflow, DltExtremeMagnitudesAreInTheirBoxesOrRefused) {
  std::mt19937_64 rng(11);
  int planned = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Instance in = random_instance(rng, 60, 6);
    const Schedule fast = solve_fast(in);
    for (std::size_t i = 0; i < in.alpha.size(); ++i) {
      ASSERT_LE(std::abs(fast.delta[i]), fast.makespan * in.b[i]) << trial << " " << i;
    }
    try {
      const Schedule plan = dlt::plan(in);
      EXPECT_LE(plan.makespan, plan.lower_bound.value() * (1 + 1e-6)) << trial;
      ++planned;
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "") << trial;
    }
  }
  EXPECT_GT(planned, 1800);
}

// Over 12 orders of magnitude every instance is planned; nearly all are optimal to 1e-7, the
// others within 1e-6 and said not to be.
TEST(Overflow, DltTwelveOrdersOfMagnitudeAreAllPlanned) {
  std::mt19937_64 rng(12);
  int optimal = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Instance in = random_instance(rng, 12, 6);
    Schedule plan;
    ASSERT_NO_THROW(plan = dlt::plan(in)) << trial;
    EXPECT_EQ(plan.optimal, plan.makespan <= plan.lower_bound.value() * (1 + 1e-7)) << trial;
    optimal += plan.optimal ? 1 : 0;
  }
  EXPECT_GE(optimal, 1980);
}

}  // namespace
}  // namespace redist::dlt
