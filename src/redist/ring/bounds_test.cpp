#include "redist/ring/bounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

// Slice imbalances by direct summation: imbalance of C_{k, k+length-1}.
std::int64_t slice(const Instance& in, std::size_t k, std::size_t length) {
  std::int64_t sum = 0;
  for (std::size_t j = 0; j < length; ++j) sum += in.imbalance((k + j) % in.size());
  return sum;
}

double brute_lemma6(const Instance& in) {
  std::int64_t steps = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    steps = std::max(steps, std::abs(in.imbalance(k)));
    for (std::size_t length = 2; length < in.size(); ++length) {
      const std::int64_t d = std::abs(slice(in, k, length));
      steps = std::max(steps, (d + 1) / 2);
    }
  }
  return static_cast<double>(steps) * in.cost_next[0];
}

// Lemma 12 with the inner minimum over every split i, straight from RRV04 Eq. (11).
double brute_lemma12(const Instance& in) {
  const std::size_t n = in.size();
  double best = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::int64_t d = in.imbalance(k);
    if (d > 0) best = std::max(best, d * std::min(in.cost_prev[k], in.cost_next[k]));
    if (d < 0)
      best = std::max(best, -d * std::min(in.cost_next[in.pred(k)], in.cost_prev[in.succ(k)]));
    for (std::size_t length = 2; length < n; ++length) {
      const std::int64_t s = slice(in, k, length);
      const std::size_t l = (k + length - 1) % n;
      const double a = s > 0 ? in.cost_prev[k] : in.cost_next[in.pred(k)];
      const double b = s > 0 ? in.cost_next[l] : in.cost_prev[in.succ(l)];
      const std::int64_t total = std::abs(s);
      if (total == 0) continue;
      double inner = INFINITY;
      for (std::int64_t i = 0; i <= total; ++i) {
        inner = std::min(inner, std::max(i * a, (total - i) * b));
      }
      best = std::max(best, inner);
    }
  }
  return best;
}

// System 6 by trying every x in a range wider than the optimum's.
double brute_system6(const Instance& in) {
  std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const auto [lo, hi] = std::minmax_element(prefix.begin(), prefix.end());
  double best = INFINITY;
  for (std::int64_t x = -*hi - 3; x <= -*lo + 3; ++x) {
    std::vector<std::int64_t> flows(prefix);
    bool allowed = true;
    for (auto& f : flows) {
      f += x;
      allowed = allowed && (in.bidirectional || f >= 0);
    }
    if (allowed) best = std::min(best, system6_time(in, flows));
  }
  return best;
}

TEST(Bounds, Lemma1AndTheorem2OnAHandExample) {
  Instance in;
  in.loads = {5, 1, 3, 1};
  in.targets = {1, 3, 2, 4};  // delta 4 -2 1 -3; prefix 4 2 3 0
  in.cost_next = {1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(lemma1_bound(in), 4.0);
  in.cost_next = {1, 3, 2, 1};
  EXPECT_DOUBLE_EQ(theorem2_bound(in), 6.0);  // flows 4 2 3 0 times costs: 4, 6, 6, 0
}

TEST(Bounds, Lemma6MatchesSliceEnumeration) {
  std::mt19937_64 rng(11);
  testkit::RandomRingOptions o;
  o.n_max = 12;
  o.load_min = 0;
  o.load_max = 30;
  o.target_min = 0;
  o.bidirectional = true;
  o.homogeneous = true;
  for (int trial = 0; trial < 3000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    ASSERT_DOUBLE_EQ(lemma6_bound(in), brute_lemma6(in)) << "trial " << trial;
  }
}

TEST(Bounds, Lemma12MatchesEquation11) {
  std::mt19937_64 rng(12);
  testkit::RandomRingOptions o;
  o.n_max = 10;
  o.load_min = 0;
  o.load_max = 40;
  o.target_min = 0;
  o.bidirectional = true;
  for (int trial = 0; trial < 2000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    ASSERT_NEAR(*lemma12_bound(in), brute_lemma12(in), 1e-9 * brute_lemma12(in)) << trial;
  }
  EXPECT_FALSE(lemma12_bound(testkit::random_ring(rng, o), 1).has_value());
}

// Lemma 12 over every slice with the inner minimum computed for each (no pruning): the value
// lemma12_bound must give exactly, its pruning skipping only slices that cannot raise it.
double unpruned_lemma12(const Instance& in) {
  const std::size_t n = in.size();
  long double best = 0;
  const auto split = [](std::int64_t total, double a, double b) {
    const long double t = static_cast<long double>(total);
    const long double real = t * b / (static_cast<long double>(a) + b);
    long double inner = INFINITY;
    for (long double i : {std::floor(real), std::ceil(real)}) {
      i = std::clamp(i, 0.0L, t);
      inner = std::min(inner, std::max(i * a, (t - i) * b));
    }
    return inner;
  };
  for (std::size_t k = 0; k < n; ++k) {
    const std::int64_t d = in.imbalance(k);
    if (d > 0)
      best =
          std::max(best, d * static_cast<long double>(std::min(in.cost_prev[k], in.cost_next[k])));
    if (d < 0) {
      const double c = std::min(in.cost_next[in.pred(k)], in.cost_prev[in.succ(k)]);
      best = std::max(best, -d * static_cast<long double>(c));
    }
    for (std::size_t length = 2; length < n; ++length) {
      const std::int64_t s = slice(in, k, length);
      const std::size_t l = (k + length - 1) % n;
      if (s > 0) best = std::max(best, split(s, in.cost_prev[k], in.cost_next[l]));
      if (s < 0)
        best = std::max(best, split(-s, in.cost_next[in.pred(k)], in.cost_prev[in.succ(l)]));
    }
  }
  return static_cast<double>(best);
}

TEST(Bounds, Lemma12PruningGivesTheSameValue) {
  std::mt19937_64 rng(1212);
  for (int trial = 0; trial < 4000; ++trial) {
    testkit::RandomRingOptions o;
    o.n_min = 2;
    o.n_max = trial % 4 == 0 ? 3 : 60;  // the smallest rings too
    o.load_min = 0;
    o.load_max = trial % 3 == 0 ? 2 : 1000;  // many balanced slices, or large imbalances
    o.target_min = 0;
    o.cost_min = trial % 5 == 0 ? 1e-3 : 0.1;
    o.cost_max = trial % 5 == 0 ? 1e3 : 10.0;
    o.bidirectional = true;
    o.homogeneous = trial % 7 == 0;
    const Instance in = testkit::random_ring(rng, o);
    ASSERT_EQ(*lemma12_bound(in), unpruned_lemma12(in)) << "trial " << trial;
  }
  // A balanced ring: every term is 0.
  const Instance balanced{true, {3, 3, 3}, {3, 3, 3}, {1.0, 2.0, 3.0}, {1.0, 1.0, 1.0}};
  EXPECT_EQ(*lemma12_bound(balanced), 0.0);
}

TEST(Bounds, Lemma12SkippedBeyondItsLimitWithANote) {
  std::mt19937_64 rng(1213);
  testkit::RandomRingOptions o;
  o.n_min = o.n_max = 50;
  o.bidirectional = true;
  const Instance in = testkit::random_ring(rng, o);
  const BoundReport full = bounds(in);
  EXPECT_TRUE(full.terms[0].value.has_value());
  EXPECT_TRUE(full.notes.empty());
  const BoundReport skipped = bounds(in, 49);
  ASSERT_EQ(skipped.terms[0].name, "lemma12");
  EXPECT_FALSE(skipped.terms[0].value.has_value());
  ASSERT_EQ(skipped.notes.size(), 1u);
  EXPECT_EQ(skipped.notes[0], lemma12_skipped_note(50, 49));
  EXPECT_TRUE(skipped.notes[0].starts_with("lemma12 skipped: ")) << skipped.notes[0];
  EXPECT_NE(skipped.notes[0].find("O(n^2)"), std::string::npos);
  // System 6 is never below Lemma 12: the bound is the same without it.
  EXPECT_EQ(skipped.lower_bound, full.lower_bound);
}

TEST(Bounds, System6ConvexSearchFindsTheIntegerOptimum) {
  std::mt19937_64 rng(13);
  for (bool bidirectional : {true, false}) {
    testkit::RandomRingOptions o;
    o.n_max = 16;
    o.load_min = 0;
    o.load_max = 50;
    o.target_min = 0;
    o.bidirectional = bidirectional;
    for (int trial = 0; trial < 3000; ++trial) {
      const Instance in = testkit::random_ring(rng, o);
      const System6Solution s = system6_integer_optimum(in);
      ASSERT_NEAR(s.tau, brute_system6(in), 1e-9 * s.tau) << "trial " << trial;
      ASSERT_NEAR(system6_time(in, s.flows), s.tau, 1e-12 * s.tau);
      // The flows balance every processor.
      for (std::size_t i = 0; i < in.size(); ++i) {
        ASSERT_EQ(in.loads[i] - s.flows[i] + s.flows[in.pred(i)], in.targets[i]);
      }
    }
  }
}

// Relations between the bounds: System 6 dominates Lemma 12 (checked here on random rings) and, on
// homogeneous rings meeting the paper's assumptions, equals Lemma 6 (Theorem 3 makes Lemma 6
// achievable, and every schedule's flows satisfy System 6); on unidirectional rings it equals
// Theorem 2.
TEST(Bounds, System6DominatesAndMatchesTheoremBounds) {
  std::mt19937_64 rng(14);
  testkit::RandomRingOptions o;
  o.n_max = 40;
  for (int trial = 0; trial < 2000; ++trial) {
    o.bidirectional = true;
    o.homogeneous = trial % 2 == 0;
    const Instance bi = testkit::random_ring(rng, o);
    const double tau = system6_integer_optimum(bi).tau;
    ASSERT_GE(tau, *lemma12_bound(bi) * (1 - 1e-12)) << trial;
    if (o.homogeneous) {
      ASSERT_NEAR(tau, lemma6_bound(bi), 1e-9 * tau) << trial;
    }
    o.bidirectional = false;
    const Instance uni = testkit::random_ring(rng, o);
    ASSERT_NEAR(system6_integer_optimum(uni).tau, theorem2_bound(uni), 1e-9 * theorem2_bound(uni));
  }
}

TEST(Bounds, ReportListsTheTermsOfTheCase) {
  Instance in;
  in.bidirectional = true;
  in.loads = {5, 1, 3, 7};
  in.targets = {4, 4, 4, 4};
  in.cost_next = {1.0, 2.0, 1.0, 1.0};
  in.cost_prev = {1.5, 1.5, 1.5, 1.5};
  const BoundReport r = bounds(in);
  ASSERT_EQ(r.terms.size(), 2u);
  EXPECT_EQ(r.terms[0].name, "lemma12");
  EXPECT_EQ(r.terms[1].name, "system6");
  EXPECT_DOUBLE_EQ(r.lower_bound, std::max(*r.terms[0].value, *r.terms[1].value));
  // delta = 1 -3 -1 3. P3 must send 3 items (cheapest link 1.0): Lemma 12 >= 3.
  EXPECT_GE(r.lower_bound, 3.0);
}

TEST(Bounds, HugeCountsDoNotOverflow) {
  Instance in;
  in.bidirectional = true;
  const std::int64_t big = 4'000'000'000'000'000'000;
  in.loads = {big, 0, 0, big};
  in.targets = {0, big, big, 0};
  in.cost_next = {1, 1, 1, 1};
  in.cost_prev = {1, 1, 1, 1};
  const System6Solution s = system6_integer_optimum(in);
  EXPECT_EQ(s.flows[0] - s.flows[3], big);
  EXPECT_NEAR(s.tau, 4e18, 1e4);
  EXPECT_NEAR(lemma6_bound(in), 4e18, 1e4);
}

}  // namespace
}  // namespace redist::ring
