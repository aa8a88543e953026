#include "redist/slicering/auto.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "redist/slicering/exact.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/slicering_brute_force.hpp"

namespace redist::slicering {
namespace {

using testing::brute_force_t_step;

// What every auto solution must satisfy against the optimum over all rings enumerated: valid per
// the checker (with its claims), a lower bound at most the optimum, `optimal` only at the optimum.
void expect_sound(const Cluster& cl, const Solution& s, double optimum, const std::string& what) {
  const std::vector<long long> ring(s.ring.begin(), s.ring.end());
  const CheckResult r =
      check(cl, ring, s.alpha, Claims{s.makespan, s.makespan, s.lower_bound, s.optimal});
  EXPECT_TRUE(r.valid) << what << ": " << r.reason;
  ASSERT_GT(s.lower_bound, 0.0) << what;
  EXPECT_LE(s.lower_bound, optimum * (1 + 1e-9)) << what;
  EXPECT_GE(s.makespan, optimum * (1 - 1e-9)) << what;
  if (s.optimal) {
    EXPECT_NEAR(s.makespan, optimum, 1e-9 * optimum) << what;
  }
  EXPECT_FALSE(s.notes.empty()) << what;
}

Cluster random_small(std::mt19937_64& rng, std::size_t p) {
  return testing::random_cluster(rng, p, std::pow(10.0, double(rng() % 7) - 2.0), 1.0,
                                 rng() % 2 == 0);
}

// The default on 3000 random clusters of 1-8 processors (exact runs): the optimum, proven.
TEST(Auto, EqualsBruteForceAndProvesIt) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < testkit::random_cases(3000); ++trial) {
    const std::size_t p = 1 + trial % 8;
    const Cluster cl = random_small(rng, p);
    const double optimum = brute_force_t_step(cl);
    const std::string what = fmt::format("trial {} p {}", trial, p);
    const Solution s = plan(cl, {"auto"});
    expect_sound(cl, s, optimum, what);
    EXPECT_EQ(s.algorithm, "exact") << what;
    EXPECT_TRUE(s.optimal) << what;
    EXPECT_NEAR(s.makespan, optimum, 1e-9 * optimum) << what;
    // The search's bound, certified under rounding: a few rounding units below (gap written 0).
    EXPECT_LE(s.lower_bound, s.makespan) << what;
    EXPECT_GE(s.lower_bound, s.makespan * (1 - 1e-13)) << what;
    const std::size_t q = 1 + rng() % p;
    const Solution f = plan(cl, {"auto", q});
    EXPECT_EQ(f.ring.size(), q) << what;
    EXPECT_TRUE(f.optimal) << what;
    expect_sound(cl, f, brute_force_t_step(cl, q), what + fmt::format(" q {}", q));
  }
}

// The heuristic path (what auto runs above 16 processors or when exact's budget runs out),
// forced on small clusters so that it can be compared with brute force: sound bounds, and
// `optimal` only at the optimum.
TEST(Auto, HeuristicPathIsSoundAgainstBruteForce) {
  std::mt19937_64 rng(78);
  int proven = 0, heuristic_at_optimum = 0;
  for (int trial = 0; trial < testkit::random_cases(3000); ++trial) {
    const std::size_t p = 1 + trial % 8;
    const Cluster cl = random_small(rng, p);
    const double optimum = brute_force_t_step(cl);
    const std::string what = fmt::format("trial {} p {}", trial, p);
    const Solution s = plan_auto_heuristics(cl, std::nullopt, "test");
    expect_sound(cl, s, optimum, what);
    EXPECT_TRUE(s.algorithm == "greedy" || s.algorithm == "tsp") << what;
    proven += s.optimal;
    heuristic_at_optimum += s.makespan <= optimum * (1 + 1e-9);
    const std::size_t q = 1 + rng() % p;
    expect_sound(cl, plan_auto_heuristics(cl, q, "test"), brute_force_t_step(cl, q),
                 what + fmt::format(" q {}", q));
  }
  // Not vacuous: sizes 1 and 2 are proven by the exact small-ring bounds.
  EXPECT_GT(proven, testkit::random_cases(500));
  EXPECT_GE(heuristic_at_optimum, proven);
}

// Above the exact limit: greedy or tsp, valid, with a bound below the makespan.
TEST(Auto, LargeClustersGetHeuristicsAndABound) {
  std::mt19937_64 rng(79);
  for (std::size_t p : {17, 30, 100}) {
    const Cluster cl = testing::random_cluster(rng, p, 1000.0, 1.0);
    const Solution s = plan(cl, {"auto"});
    EXPECT_TRUE(s.algorithm == "greedy" || s.algorithm == "tsp");
    ASSERT_GT(s.lower_bound, 0.0);
    EXPECT_GT(s.lower_bound, 0.0);
    EXPECT_LE(s.lower_bound, s.makespan);
    const std::vector<long long> ring(s.ring.begin(), s.ring.end());
    EXPECT_TRUE(check(cl, ring, s.alpha, Claims{s.makespan, {}, {}, {}}).valid);
    EXPECT_LE(s.makespan, plan(cl, {"greedy"}).makespan);
  }
}

// A published platform (13-14 processors) is solved exactly by the default.
TEST(Auto, PublishedPlatformsAreSolvedExactly) {
  for (const char* name : {"lyon", "strasbourg"}) {
    const Cluster cl = testing::platform(name);
    const Solution s = plan(cl, {"auto"});
    EXPECT_EQ(s.algorithm, "exact");
    EXPECT_TRUE(s.optimal);
    EXPECT_NEAR(s.makespan, plan_exact(cl).makespan, 1e-12 * s.makespan);
  }
}

}  // namespace
}  // namespace redist::slicering
