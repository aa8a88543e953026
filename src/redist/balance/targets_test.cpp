#include "redist/balance/targets.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

// Reference: D'Hondt from zero, one item at a time, ties to the lower index (the header's rule).
std::vector<std::int64_t> one_at_a_time(std::int64_t items, const std::vector<double>& s) {
  std::vector<std::int64_t> t(s.size(), 0);
  for (std::int64_t n = 0; n < items; ++n) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < s.size(); ++i)
      if (compare_ratios(t[i] + 1, s[i], t[best] + 1, s[best]) < 0) best = i;
    ++t[best];
  }
  return t;
}

// Brute force: the least max_i t_i / s_i over every distribution of `items`.
double brute_force_optimum(std::int64_t items, const std::vector<double>& s) {
  double best = std::numeric_limits<double>::infinity();
  std::vector<std::int64_t> t(s.size(), 0);
  const auto recurse = [&](auto&& self, std::size_t i, std::int64_t left) -> void {
    if (i + 1 == s.size()) {
      t[i] = left;
      best = std::min(best, iteration_time(t, s));
      return;
    }
    for (std::int64_t v = 0; v <= left; ++v) {
      t[i] = v;
      self(self, i + 1, left - v);
    }
  };
  recurse(recurse, 0, items);
  return best;
}

TEST(CompareRatios, ExactOnProductsThatRoundEqual) {
  EXPECT_EQ(compare_ratios(1, 3.0, 2, 6.0), 0);
  EXPECT_EQ(compare_ratios(0, 1.0, 0, 5.0), 0);
  EXPECT_EQ(compare_ratios(0, 1.0, 1, 5.0), -1);
  // (2^53 + 1) / 1 against 2^53 / 1: equal once rounded to doubles, not exactly.
  const std::int64_t big = std::int64_t{1} << 53;
  EXPECT_EQ(compare_ratios(big + 1, 1.0, big, 1.0), 1);
  EXPECT_EQ(compare_ratios(big, 1.0, big + 1, 1.0), -1);
  // k / a with a the next double after 1: just below k.
  const double up = std::nextafter(1.0, 2.0);
  EXPECT_EQ(compare_ratios(big, up, big, 1.0), -1);
  EXPECT_EQ(compare_ratios(3, 1e-300, 1, 1e300), 1);
  EXPECT_EQ(compare_ratios(std::numeric_limits<std::int64_t>::max(), 1e308, 1, 4.9e-324), -1);
}

TEST(CompareRatios, AgreesWithIntegerArithmeticOnSmallValues) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t k = static_cast<std::int64_t>(rng() % 1000), l = rng() % 1000;
    const std::int64_t a = 1 + rng() % 1000, b = 1 + rng() % 1000;
    const std::int64_t lhs = k * b, rhs = l * a;
    const int want = lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
    ASSERT_EQ(compare_ratios(k, static_cast<double>(a), l, static_cast<double>(b)), want);
  }
}

TEST(BalancedTargets, EqualsBruteForceAndTheTieRuleOnSmallCases) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t p = 1 + rng() % 4;
    const std::int64_t items = static_cast<std::int64_t>(rng() % 12);
    std::vector<double> s(p);
    // Small integer speeds make ties frequent; some trials use arbitrary reals.
    for (double& v : s)
      v = trial % 3 ? static_cast<double>(1 + rng() % 4) : 0.1 + (rng() % 10000) / 997.0;
    const std::vector<std::int64_t> t = balanced_targets(items, s);
    ASSERT_EQ(std::accumulate(t.begin(), t.end(), std::int64_t{0}), items);
    for (std::int64_t v : t) ASSERT_GE(v, 0);
    ASSERT_EQ(iteration_time(t, s), brute_force_optimum(items, s)) << "trial " << trial;
    ASSERT_EQ(t, one_at_a_time(items, s)) << "trial " << trial;
  }
}

// Optimality certificate: every item held precedes every item not held, in the order of the
// header (time k / s_i, then index): no exchange can shorten the iteration.
void expect_certified(std::int64_t items, const std::vector<double>& s,
                      const std::vector<std::int64_t>& t) {
  Int128 sum = 0;
  for (std::int64_t v : t) sum += v;
  ASSERT_TRUE(sum == items);
  // The last item held and the first item not held, in the order (k / s_i, i).
  const auto before = [&](std::int64_t k, std::size_t i, std::int64_t l, std::size_t j) {
    const int c = compare_ratios(k, s[i], l, s[j]);
    return c < 0 || (c == 0 && i < j);
  };
  std::size_t last = s.size(), first = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ASSERT_GE(t[i], 0);
    if (t[i] > 0 && (last == s.size() || before(t[last], last, t[i], i))) last = i;
    if (before(t[i] + 1, i, t[first] + 1, first)) first = i;
  }
  if (last != s.size()) {
    ASSERT_TRUE(before(t[last], last, t[first] + 1, first));
  }
}

TEST(BalancedTargets, ProportionalRoundingIsNotOptimal) {
  // Speeds 10 and 1, 6 items: the shares 5.45 and 0.55 round to 5 and 1 (time 1 on the slow
  // processor); the optimum puts all 6 on the fast one (time 0.6).
  EXPECT_EQ(balanced_targets(6, {10, 1}), (std::vector<std::int64_t>{6, 0}));
  EXPECT_EQ(balanced_targets(4, {1, 1, 1.5}), (std::vector<std::int64_t>{1, 1, 2}));
  EXPECT_EQ(balanced_targets(10, {3, 3, 3, 1}), (std::vector<std::int64_t>{3, 3, 3, 1}));
}

TEST(BalancedTargets, EdgeCases) {
  EXPECT_EQ(balanced_targets(0, {1, 2, 3}), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(balanced_targets(7, {2}), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(balanced_targets(3, {1, 1, 1, 1, 1}), (std::vector<std::int64_t>{1, 1, 1, 0, 0}));
  // Extreme magnitudes: the tiny processor gets nothing.
  EXPECT_EQ(balanced_targets(5, {1e300, 1e-300}), (std::vector<std::int64_t>{5, 0}));
  EXPECT_EQ(balanced_targets(4, {4.9e-324, 4.9e-324}), (std::vector<std::int64_t>{2, 2}));
}

TEST(BalancedTargets, CertifiedOnHugeCountsAndManyProcessors) {
  std::mt19937_64 rng(5);
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t p = 1 + rng() % 64;
    std::vector<double> s(p);
    for (double& v : s)
      v = std::ldexp(1.0 + (rng() % 1000000) / 1e6, static_cast<int>(rng() % 40) - 20);
    const std::int64_t items = trial % 2 ? huge - static_cast<std::int64_t>(rng() % 1000)
                                         : static_cast<std::int64_t>(rng() % 100000);
    expect_certified(items, s, balanced_targets(items, s));
  }
  std::vector<double> many(100000);
  for (double& v : many) v = 1.0 + (rng() % 1000);
  expect_certified(123456789, many, balanced_targets(123456789, many));
}

TEST(BalancedTargets, RefusesBadSpeedsAndCounts) {
  EXPECT_THROW(balanced_targets(3, {}), InputError);
  EXPECT_THROW(balanced_targets(3, {1, 0}), InputError);
  EXPECT_THROW(balanced_targets(3, {1, -2}), InputError);
  EXPECT_THROW(balanced_targets(3, {1, std::nan("")}), InputError);
  EXPECT_THROW(balanced_targets(3, {1, std::numeric_limits<double>::infinity()}), InputError);
  EXPECT_THROW(balanced_targets(-1, {1, 2}), InputError);
}

}  // namespace
}  // namespace redist::balance
