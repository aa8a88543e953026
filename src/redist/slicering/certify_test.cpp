// Claims under rounding (certify.hpp; docs/slicering.md, "What optimal means under rounding"): on
// thousands of random clusters whose W, H, w and c span 1e-300..1e300 (subnormal c and W
// included), every lower bound the SliceRing code reports is at most the exact optimum (an
// independent enumeration of every ring in long double, testing/slicering_brute_force.hpp), and
// every `optimal: true` is that optimum within kTimeTolerance.
#include "redist/slicering/certify.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/slicering/auto.hpp"
#include "redist/slicering/bounds.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/tsp.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/slicering_brute_force.hpp"

namespace redist::slicering {
namespace {

using testing::kReferenceAccuracy;

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

double power(double x) { return std::pow(10.0, x); }  // subnormal below 2.2e-308, 0 below them

// The exponents of a cluster: time scale s (log10 of W w), W = 10^e, cycle-times 10^(s - e +-
// spread), communication times 10^(s + r), H = 10^h, capacities 10^(s + r - h +- 1.5).
struct Exponents {
  double s, e, spread, r, h;
};

// Half the clusters are general (W, H, w, c anywhere in 1e-300..1e300, cycle-times of one cluster
// spanning up to 300 orders, communication from 1e-40 to 1e40 times the work); one in five has
// subnormal capacities (H near 1e300 / c), one in five a subnormal W, one in ten cycle-times near
// the largest double (so 1/w is subnormal).
Exponents random_exponents(std::mt19937_64& rng) {
  const double spreads[] = {0, 1, 3, 30, 150};
  Exponents x{};
  x.r = rng() % 4 == 0 ? uniform(rng, -40, 40) : uniform(rng, -3, 1);
  x.spread = spreads[rng() % 3];
  switch (rng() % 10) {
    case 5:
    case 6:  // subnormal capacities
      x.s = uniform(rng, -250, -40);
      x.e = uniform(rng, std::max(-300.0, x.s - 300), x.s + 300);
      x.r = uniform(rng, -3, 1);
      x.h = x.s + x.r + uniform(rng, 309, 320);
      return x;
    case 7:
    case 8:  // subnormal W
      x.e = uniform(rng, -322, -309);
      x.s = uniform(rng, -290, x.e + 300);
      break;
    case 9:  // cycle-times near the largest double
      x.s = uniform(rng, 10, 290);
      x.e = x.s - uniform(rng, 305, 308.2);
      x.spread = 0.3;
      break;
    default:
      x.s = uniform(rng, -290, 290);
      x.e = uniform(rng, std::max(-300.0, x.s - 300), std::min(300.0, x.s + 300));
      x.spread = spreads[rng() % 5];
  }
  x.h = uniform(rng, std::max(-300.0, x.s + x.r - 300), std::min(300.0, x.s + x.r + 300));
  return x;
}

// Some networks symmetric, some homogeneous (for `homogeneous`).
Cluster extreme_cluster(std::mt19937_64& rng, std::size_t p) {
  const Exponents x = random_exponents(rng);
  Cluster cl;
  cl.W = power(x.e);
  cl.H = power(x.h);
  for (std::size_t i = 0; i < p; ++i) {
    cl.w.push_back(power(x.s - x.e + uniform(rng, -1, 1) * x.spread));
  }
  const int network = static_cast<int>(rng() % 8);
  const double same = power(x.s + x.r - x.h + uniform(rng, -1.5, 1.5));
  cl.c.assign(p * p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i == j) continue;
      cl.c[i * p + j] = network == 0            ? same
                        : network <= 2 && j < i ? cl.c[j * p + i]
                                                : power(x.s + x.r - x.h + uniform(rng, -1.5, 1.5));
    }
  }
  return cl;
}

struct Tally {
  int accepted = 0, refused = 0, plans = 0, problems = 0;
  int normal_w_problems = 0, normal_w_exact_optimal = 0;  // problems whose W is a normal double
  std::map<std::string, int> optimal;
};

// The claims of one solution against the reference optimum of its problem.
void expect_sound(Tally& tally, const Cluster& cl, const Solution& s, long double optimum,
                  const std::string& name, const std::string& what) {
  ++tally.plans;
  const CheckResult verdict = check(cl, s);
  EXPECT_TRUE(verdict.valid) << what << ": " << verdict.reason;
  EXPECT_TRUE(s.consistent()) << what;
  const double bound = s.lower_bound.value_or(0.0);  // greedy proves none
  EXPECT_LE(static_cast<long double>(bound), optimum * (1 + kReferenceAccuracy))
      << what
      << fmt::format(": lower bound {:.17g} above the optimum {:.17g}", bound,
                     static_cast<double>(optimum));
  EXPECT_GE(static_cast<long double>(s.makespan), optimum * (1 - kTimeTolerance)) << what;
  if (!s.optimal) return;
  ++tally.optimal[name];
  EXPECT_LE(static_cast<long double>(s.makespan), optimum * (1 + kTimeTolerance))
      << what
      << fmt::format(": optimal {:.17g} but the optimum is {:.17g}", s.makespan,
                     static_cast<double>(optimum));
}

// The bounds of bounds.hpp and every planner's claims, for one problem (every size, or q).
void check_problem(Tally& tally, const Cluster& cl, std::optional<std::size_t> q,
                   const std::string& what) {
  const long double optimum = testing::reference_optimum(cl, q);
  ++tally.problems;
  EXPECT_LE(static_cast<long double>(ring_size_bound(cl, q)), optimum * (1 + kReferenceAccuracy))
      << what << ": ring_size_bound";
  for (const auto& [name, description] : slicering_algorithm_names()) {
    Solution s;
    try {
      s = plan(cl, {name, q});
    } catch (const InputError&) {
      continue;  // homogeneous on other networks, tsp with q < p
    }
    expect_sound(tally, cl, s, optimum, name, what + " " + name);
    if (name == "exact" && cl.W >= std::numeric_limits<double>::min()) {
      tally.normal_w_exact_optimal += s.optimal;
    }
  }
  tally.normal_w_problems += cl.W >= std::numeric_limits<double>::min();
  expect_sound(tally, cl, plan_auto_heuristics(cl, q, "test"), optimum, "auto heuristics",
               what + " auto heuristics");
}

// The cheapest-links relaxation alone over sizes a..p, tsp's tour bound and the 1-tree bound.
void check_relaxations(const Cluster& cl, std::mt19937_64& rng, const std::string& what) {
  const std::size_t p = cl.size();
  if (p >= 3) {
    const std::size_t a = 3 + rng() % (p - 2);
    long double best = INFINITY;
    for (std::size_t size = a; size <= p; ++size) {
      best = std::min(best, testing::reference_optimum(cl, size));
    }
    EXPECT_LE(static_cast<long double>(cheapest_links_bound(cl, a, p)),
              best * (1 + kReferenceAccuracy))
        << what << " sizes " << a << ".." << p;
  }
  const long double shortest = testing::reference_shortest_tour(cl);
  const Solution t = plan(cl, {"tsp", std::nullopt});
  EXPECT_LE(static_cast<long double>(*t.tour_lower_bound), shortest * (1 + kReferenceAccuracy))
      << what << ": tour_lower_bound";
  if (p < 3) return;
  // The 1-tree bound (tsp's above 16 processors), with the ascent's penalties and with random
  // ones of the tour's magnitude and far beyond (their sums cancel): a bound for any penalties.
  std::vector<double> d(p * p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = i + 1; j < p; ++j) d[i * p + j] = d[j * p + i] = cl.edge(i, j);
  }
  std::vector<double> penalties = one_tree_penalties(d, p, *t.tour_cost);
  EXPECT_LE(static_cast<long double>(one_tree_lower_bound(d, p, penalties)),
            shortest * (1 + kReferenceAccuracy))
      << what << ": 1-tree";
  const double scale = *t.tour_cost * std::pow(10.0, double(rng() % 40));
  for (double& x : penalties) x = scale * uniform(rng, -1, 1);
  EXPECT_LE(static_cast<long double>(one_tree_lower_bound(d, p, penalties)),
            shortest * (1 + kReferenceAccuracy))
      << what << ": 1-tree, random penalties";
}

TEST(ClaimsUnderRounding, BoundsNeverExceedTheOptimumAndOptimalMeansOptimal) {
  if (!testing::kLongDoubleReferenceExact) GTEST_SKIP() << "long double too narrow here";
  std::mt19937_64 rng(2031);
  Tally tally;
  for (int trial = 0; trial < 5000; ++trial) {
    const std::size_t p = 1 + static_cast<std::size_t>(trial) % 7;
    const Cluster cl = extreme_cluster(rng, p);
    try {
      check_cluster_range(cl);
    } catch (const InputError&) {
      ++tally.refused;  // a time of the model outside the double range, refused naming the field
      continue;
    }
    ++tally.accepted;
    const std::string what = fmt::format("trial {} p {}", trial, p);
    check_problem(tally, cl, std::nullopt, what);
    const std::size_t q = 1 + rng() % p;
    check_problem(tally, cl, q, what + fmt::format(" q {}", q));
    check_relaxations(cl, rng, what);
  }
  std::printf(
      "claims under rounding: %d clusters (%d refused), %d problems (%d with a normal W, exact "
      "optimal on %d of them), %d plans; optimal:",
      tally.accepted, tally.refused, tally.problems, tally.normal_w_problems,
      tally.normal_w_exact_optimal, tally.plans);
  for (const auto& [name, count] : tally.optimal) std::printf(" %s %d", name.c_str(), count);
  std::printf("\n");
  EXPECT_GT(tally.accepted, 4000);
  // Not vacuous: exact proves nearly every problem (all but a few where W is subnormal, so that
  // the quotients H c / w of Eq. 3 are too), the lower-bound proofs many.
  EXPECT_GE(tally.normal_w_exact_optimal, tally.normal_w_problems * 99 / 100);
  EXPECT_GT(tally.optimal["exact"], tally.problems * 9 / 10);
  EXPECT_GT(tally.optimal["tsp"], 1000);
  EXPECT_GT(tally.optimal["auto heuristics"], 3000);
  EXPECT_GT(tally.optimal["homogeneous"], 1000);
}

// The cluster of w = 1e-100 and 1 (shares [0, 1] and T_step 102 were once claimed optimal where
// [0.98, 0.02] gives 4): exact and auto prove the optimum with and without a forced size (2: 4;
// any: the fast processor alone, W w = 1e-98).
TEST(ClaimsUnderRounding, SpreadCycleTimesKeepTheirOptimum) {
  Cluster cl;
  cl.w = {1e-100, 1};
  cl.c = {0, 2, 1, 0};
  cl.W = 100;
  cl.H = 1;
  for (const char* name : {"exact", "auto"}) {
    for (std::optional<std::size_t> q :
         {std::optional<std::size_t>(2), std::optional<std::size_t>()}) {
      const Solution s = plan(cl, {name, q});
      const long double optimum = testing::reference_optimum(cl, q);
      EXPECT_TRUE(check(cl, s).valid);
      EXPECT_TRUE(s.optimal) << name;
      EXPECT_NEAR(s.makespan, q ? 4.0 : 1e-98, 1e-12 * s.makespan) << name;
      EXPECT_LE(static_cast<long double>(s.lower_bound.value()), optimum) << name;
      EXPECT_LE(static_cast<long double>(s.makespan), optimum * (1 + kTimeTolerance)) << name;
    }
  }
}

// The exact result of a rounded operation lies between the outward steps: 0.1 + 0.2 (exact in
// long double: the two significands are 53 bits, one exponent apart), a product, a subnormal
// quotient; and a sum whose result is subnormal is exact, so add_down and add_up leave it.
TEST(ClaimsUnderRounding, OutwardStepsEncloseTheExactResult) {
  if (!testing::kLongDoubleReferenceExact) GTEST_SKIP() << "long double too narrow here";
  const long double sum = static_cast<long double>(0.1) + static_cast<long double>(0.2);
  EXPECT_LE(static_cast<long double>(add_down(0.1, 0.2)), sum);
  EXPECT_GE(static_cast<long double>(add_up(0.1, 0.2)), sum);
  EXPECT_TRUE(add_down(0.1, 0.2) == 0.1 + 0.2 || add_up(0.1, 0.2) == 0.1 + 0.2);  // one step only
  const long double product = static_cast<long double>(0.1) * static_cast<long double>(3.0);
  EXPECT_LE(static_cast<long double>(down(0.1 * 3.0)), product);
  EXPECT_GE(static_cast<long double>(up(0.1 * 3.0)), product);
  const long double quotient = static_cast<long double>(1e-300) / 3e10L;  // 3.3e-311, subnormal
  EXPECT_LT(static_cast<long double>(down(1e-300 / 3e10)), quotient);
  EXPECT_GT(static_cast<long double>(up(1e-300 / 3e10)), quotient);
  const double a = 3 * std::numeric_limits<double>::denorm_min(), b = 1e-310;
  EXPECT_EQ(add_down(a, b), a + b);
  EXPECT_EQ(add_up(a, b), a + b);
  EXPECT_EQ(down(0.0), -std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(down(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::max());
  EXPECT_EQ(up(-std::numeric_limits<double>::infinity()), -std::numeric_limits<double>::max());
}

// A plan's certified T_step is at least the one of its shares made to sum exactly to 1.
TEST(ClaimsUnderRounding, UpperBoundCoversSharesNotSummingToOne) {
  Cluster cl;
  cl.w = {1, 1};
  cl.c = {0, 1, 1, 0};
  cl.W = 2;
  cl.H = 1;
  const std::vector<std::size_t> ring{0, 1};
  // Shares 0.25 each: normalised to 0.5, T_step = 0.5 x 2 + 2 = 3, not 0.25 x 2 + 2.
  EXPECT_GE(t_step_upper(cl, ring, {0.25, 0.25}), 3.0);
  EXPECT_LE(t_step_upper(cl, ring, {0.25, 0.25}), 3.0 * (1 + 1e-15));
  EXPECT_LE(ring_t_step_lower(cl, ring), 3.0);
  EXPECT_GE(ring_t_step_lower(cl, ring), 3.0 * (1 - 1e-14));
}

}  // namespace
}  // namespace redist::slicering
