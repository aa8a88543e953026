#include "redist/slicering/exact.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "redist/common/error.hpp"
#include "redist/slicering/auto.hpp"
#include "redist/slicering/homogeneous.hpp"
#include "redist/slicering/shares.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/slicering_brute_force.hpp"

namespace redist::slicering {
namespace {

using testing::brute_force_t_step;

void expect_valid(const Cluster& cl, const Solution& s) {
  const std::vector<long long> ring(s.ring.begin(), s.ring.end());
  const CheckResult r = check(cl, ring, s.alpha, Claims{s.makespan, {}, {}, {}});
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(Exact, EqualsBruteForceOverAllRings) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t p = 1 + trial % 8;
    const double W = std::pow(10.0, static_cast<double>(rng() % 5) - 1.0);
    const Cluster cl = testing::random_cluster(rng, p, W, 1.0, trial % 2 == 0);
    const ExactTable table = exact_table(cl);
    expect_valid(cl, table.best);
    EXPECT_TRUE(table.best.optimal);
    EXPECT_NEAR(table.best.makespan, brute_force_t_step(cl), 1e-9 * table.best.makespan)
        << "trial " << trial << " p " << p;
    for (std::size_t q = 1; q <= p; ++q) {
      ASSERT_TRUE(table.by_size[q - 1]);
      const Solution& s = *table.by_size[q - 1];
      EXPECT_EQ(s.ring.size(), q);
      expect_valid(cl, s);
      EXPECT_NEAR(s.makespan, brute_force_t_step(cl, q), 1e-9 * s.makespan)
          << "trial " << trial << " q " << q;
    }
  }
}

// Cycle-times spanning 200 orders of magnitude: every `optimal` claim must hold against brute
// force, and the claimed lower bound never exceed a valid ring's T_step. (A cluster of w = 1e-100
// and 1 once got shares [0, 1] and T_step 102, claimed optimal, where [0.98, 0.02] gives 4.)
TEST(Exact, ClaimsHoldAtEveryMagnitude) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> exponent(-100.0, 100.0);
  int claimed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t p = 2 + trial % 5;
    Cluster cl = testing::random_cluster(rng, p, 100.0, 1.0, trial % 2 == 0);
    for (double& w : cl.w) w = rng() % 2 == 0 ? std::pow(10.0, exponent(rng)) : w;
    try {
      check_cluster_range(cl);
    } catch (const InputError&) {
      continue;  // times beyond the double range are refused, naming the field
    }
    const std::optional<std::size_t> q =
        trial % 3 == 0 ? std::optional<std::size_t>(2) : std::nullopt;
    const Solution s = plan_exact(cl, q);
    expect_valid(cl, s);
    const double brute = brute_force_t_step(cl, q);
    EXPECT_LE(s.lower_bound, brute * (1 + 1e-12)) << "trial " << trial;
    if (s.optimal) {
      ++claimed;
      EXPECT_LE(s.makespan, brute * (1 + 1e-9)) << "trial " << trial;
    }
  }
  EXPECT_GT(claimed, 300);
}

TEST(Exact, TheReportedClusterGetsItsOptimum) {
  Cluster cl;
  cl.w = {1e-100, 1};
  cl.c = {0, 2, 1, 0};
  cl.W = 100;
  cl.H = 1;
  const Solution s = plan_exact(cl, 2);
  expect_valid(cl, s);
  EXPECT_TRUE(s.optimal);
  EXPECT_NEAR(s.makespan, 4.0, 1e-12);
  EXPECT_NEAR(s.alpha[0], 0.98, 1e-12);
}

TEST(Exact, ForcedSize) {
  std::mt19937_64 rng(3);
  const Cluster cl = testing::random_cluster(rng, 7, 10.0, 1.0);
  const Solution s = plan_exact(cl, 4);
  EXPECT_EQ(s.ring.size(), 4u);
  EXPECT_NEAR(s.makespan, brute_force_t_step(cl, 4), 1e-9 * s.makespan);
}

TEST(Exact, HomogeneousEqualsExactOnHomogeneousNetworks) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t p = 1 + trial % 9;
    Cluster cl = testing::random_cluster(rng, p, std::pow(10.0, (rng() % 5) - 1.0), 1.0);
    const double c = std::pow(10.0, std::uniform_real_distribution<double>(-1, 1)(rng));
    for (std::size_t i = 0; i < p * p; ++i) cl.c[i] = c;
    const Solution h = plan_homogeneous(cl);
    expect_valid(cl, h);
    EXPECT_NEAR(h.makespan, plan_exact(cl).makespan, 1e-9 * h.makespan);
    const std::size_t q = 1 + rng() % p;
    EXPECT_NEAR(plan_homogeneous(cl, q).makespan, plan_exact(cl, q).makespan, 1e-9 * h.makespan);
  }
}

TEST(Exact, HomogeneousRefusesHeterogeneousNetworks) {
  std::mt19937_64 rng(5);
  EXPECT_THROW(plan_homogeneous(testing::random_cluster(rng, 4, 1.0, 1.0)), InputError);
}

TEST(Exact, RefusesTooManyProcessors) {
  std::mt19937_64 rng(5);
  EXPECT_THROW(plan_exact(testing::random_cluster(rng, kExactMaxProcessors + 1, 1.0, 1.0)),
               InputError);
}

// Clusters whose best rings are bound by communication (W/H = 3 here: with W/H small a single
// processor wins at once, with W/H large no ring is) need the branch and bound; a time limit that
// has passed at its first check returns the better of the search's best ring and auto's
// heuristics, valid, with a certified lower bound and a note, never claiming a search proof.
TEST(Exact, TimeLimitReturnsAValidSolutionWithABound) {
  std::mt19937_64 rng(8);
  int stopped = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Cluster cl = testing::random_cluster(rng, 10, 3.0, 1.0);
    const Solution full = plan_exact(cl);
    const Solution s = plan_exact(cl, std::nullopt, Deadline(1e-9));
    expect_valid(cl, s);
    EXPECT_GE(s.makespan, full.makespan * (1 - 1e-9));
    EXPECT_LE(s.lower_bound, full.makespan * (1 + 1e-9));
    bool noted = false;
    for (const std::string& note : s.notes) noted = noted || note.starts_with("time limit of");
    stopped += noted;
    if (noted) {
      EXPECT_NE(s.proof, Proof::search);
      EXPECT_EQ(s.status, s.optimal ? Status::optimal : Status::time_limit);
    }
    EXPECT_TRUE(s.consistent());
    if (!noted) {
      EXPECT_EQ(s.makespan, full.makespan);
    }
  }
  EXPECT_GT(stopped, 3);
}

// The sets searched in exact's note "exact stopped at the lower bound after k of m processor
// sets searched ...", as {k, m}; {0, 0} when the note is not there.
std::pair<int, int> sets_to_bound(const Solution& s) {
  const std::string prefix = "exact stopped at the lower bound after ";
  for (const std::string& note : s.notes) {
    if (!note.starts_with(prefix)) continue;
    std::size_t used = 0;
    const int k = std::stoi(note.substr(prefix.size()), &used);
    const std::size_t of = prefix.size() + used + std::string(" of ").size();
    return {k, std::stoi(note.substr(of))};
  }
  return {0, 0};
}

// Rings where computation dominates (W large against H c): the best ring of the set with the least
// bound meets that bound, the least of all the sets (every ring size scanned together), so the
// search stops there, proven optimal, after a few of the 2^p - 1 sets.
TEST(Exact, StopsAtTheLowerBound) {
  std::mt19937_64 rng(21);
  int stopped = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t p = 3 + trial % 6;
    const Cluster cl = testing::random_cluster(rng, p, 1e3, 1.0, trial % 2 == 0);
    const Solution s = plan_exact(cl);
    expect_valid(cl, s);
    const auto [searched, sets] = sets_to_bound(s);
    if (searched == 0) continue;
    ++stopped;
    EXPECT_TRUE(s.optimal) << "trial " << trial;
    EXPECT_NEAR(s.makespan, brute_force_t_step(cl), 1e-9 * s.makespan) << "trial " << trial;
    EXPECT_EQ(sets, (1 << p) - 1);
    EXPECT_LE(searched, 3) << "trial " << trial;
  }
  EXPECT_GT(stopped, 40);
}

// The node budget is a status, not a refusal: with 1 branch-and-bound node, the clusters of the
// test above get the better of the search's best ring and the heuristics, valid, with a certified
// bound, not claimed proven by the search, and a note naming the limit.
TEST(Exact, NodeLimitReturnsAValidSolutionWithABound) {
  std::mt19937_64 rng(8);
  int stopped = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Cluster cl = testing::random_cluster(rng, 10, 3.0, 1.0);
    const Solution full = plan_exact(cl);
    const ExactResult r = plan_exact_within(cl, std::nullopt, 1);
    const Solution& s = r.solution;
    expect_valid(cl, s);
    EXPECT_GE(s.makespan, full.makespan * (1 - 1e-9));
    EXPECT_LE(s.lower_bound, full.makespan * (1 + 1e-9));
    EXPECT_LE(s.lower_bound, s.makespan);
    EXPECT_GT(s.lower_bound, 0.0);
    if (r.finished) {
      EXPECT_EQ(s.makespan, full.makespan);
      continue;
    }
    ++stopped;
    EXPECT_NE(s.proof, Proof::search);
    EXPECT_LE(s.makespan, plan_auto_heuristics(cl, std::nullopt, "").makespan);
    ASSERT_FALSE(s.notes.empty());
    EXPECT_TRUE(
        s.notes.back().starts_with("exact stopped at its limit of 1 branch-and-bound nodes"))
        << s.notes.back();
  }
  EXPECT_GT(stopped, 3);
}

TEST(Exact, PublishedPlatformsAllSizes) {
  for (const char* name : {"lyon", "strasbourg"}) {
    Cluster cl = testing::platform(name);
    for (double W : {1.0, 100.0, 10000.0}) {
      cl.W = W;
      const auto start = std::chrono::steady_clock::now();
      const ExactTable table = exact_table(cl);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      EXPECT_LT(seconds, 30.0);
      for (std::size_t q = 1; q <= cl.size(); ++q) {
        ASSERT_TRUE(table.by_size[q - 1]);
        expect_valid(cl, *table.by_size[q - 1]);
        EXPECT_GE(table.by_size[q - 1]->makespan, table.best.makespan);
      }
    }
  }
}

}  // namespace
}  // namespace redist::slicering
