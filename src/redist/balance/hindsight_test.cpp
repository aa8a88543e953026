#include "redist/balance/hindsight.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

// Random costs: partition j's iterations get slower as t moves away from j (drift), migrations
// cost a random amount; magnitudes from 1e-3 to 1e3, some zero.
struct RandomCosts {
  std::int64_t k;
  std::vector<std::vector<double>> time, cost;  // [j][t], [j][k]

  RandomCosts(std::int64_t iterations, std::uint64_t seed) : k(iterations) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const auto n = static_cast<std::size_t>(k + 1);
    time.assign(n, std::vector<double>(n, 0.0));
    cost.assign(n, std::vector<double>(n, 0.0));
    const double scale = std::pow(10.0, static_cast<double>(seed % 7) - 3);
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t t = j + 1; t < n; ++t) {
        time[j][t] = u(rng) < 0.1 ? 0.0 : (1 + 0.3 * static_cast<double>(t - j)) * u(rng);
        cost[j][t] = u(rng) < 0.1 ? 0.0 : scale * u(rng);
      }
    }
  }
  IterationTime iteration_time() const {
    return [this](std::int64_t j, std::int64_t t) { return time[j][t]; };
  }
  MigrationCost migration_cost() const {
    return [this](std::int64_t j, std::int64_t t) { return cost[j][t]; };
  }
};

double brute_force(const RandomCosts& c) {
  double best = std::numeric_limits<double>::infinity();
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << (c.k - 1)); ++mask) {
    std::vector<std::int64_t> points;
    for (std::int64_t j = 1; j < c.k; ++j)
      if (mask >> (j - 1) & 1) points.push_back(j);
    best = std::min(
        best, schedule_of_points(c.k, points, c.iteration_time(), c.migration_cost()).total_time);
  }
  return best;
}

TEST(HindsightOptimum, MatchesBruteForceOnSmallInstances) {
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    const RandomCosts c(1 + static_cast<std::int64_t>(seed % 10), seed);
    const HindsightSchedule s = best_rebalance_points(c.k, c.iteration_time(), c.migration_cost());
    const double expected = brute_force(c);
    ASSERT_NEAR(s.total_time, expected, 1e-12 * std::max(1.0, expected)) << "seed " << seed;
    EXPECT_DOUBLE_EQ(s.total_time, s.iterations_time + s.migrations_time);
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      EXPECT_GE(s.points[i], 1);
      EXPECT_LT(s.points[i], c.k);
      if (i > 0) {
        EXPECT_GT(s.points[i], s.points[i - 1]);
      }
    }
  }
}

TEST(HindsightOptimum, FreeMigrationsToAlwaysFreshPartitionsRebalanceEveryTime) {
  // Partition j is perfect (time 1) for t = j + 1 and twice as slow afterwards; migrating is free.
  const IterationTime time = [](std::int64_t j, std::int64_t t) { return t == j + 1 ? 1.0 : 2.0; };
  const MigrationCost free = [](std::int64_t, std::int64_t) { return 0.0; };
  const HindsightSchedule s = best_rebalance_points(6, time, free);
  EXPECT_EQ(s.points, (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
  EXPECT_DOUBLE_EQ(s.total_time, 6.0);
}

TEST(HindsightOptimum, ExpensiveMigrationsNeverPay) {
  const IterationTime time = [](std::int64_t j, std::int64_t t) {
    return 1.0 + static_cast<double>(t - j);
  };
  const MigrationCost dear = [](std::int64_t, std::int64_t) { return 1e6; };
  const HindsightSchedule s = best_rebalance_points(50, time, dear);
  EXPECT_TRUE(s.points.empty());
  EXPECT_DOUBLE_EQ(s.migrations_time, 0.0);
  EXPECT_DOUBLE_EQ(s.total_time, 50.0 + 50.0 * 51.0 / 2.0);
}

TEST(HindsightOptimum, OneIterationHasNothingToDecide) {
  const HindsightSchedule s = best_rebalance_points(
      1, [](std::int64_t, std::int64_t) { return 3.5; },
      [](std::int64_t, std::int64_t) { return 0.0; });
  EXPECT_TRUE(s.points.empty());
  EXPECT_DOUBLE_EQ(s.total_time, 3.5);
}

TEST(HindsightOptimum, HugeTermsDoNotSwallowLaterOnes) {
  // The first partition's first iteration is 1e300; every later term is 1: summed term by term.
  const IterationTime time = [](std::int64_t j, std::int64_t t) {
    return j == 0 && t == 1 ? 1e300 : 1.0;
  };
  const MigrationCost cost = [](std::int64_t, std::int64_t) { return 0.5; };
  const HindsightSchedule s = best_rebalance_points(4, time, cost);
  EXPECT_DOUBLE_EQ(s.total_time, 1e300);  // any point set: the first iteration dominates
  EXPECT_TRUE(std::isfinite(s.total_time));
}

TEST(HindsightOptimum, RefusesBadInput) {
  const IterationTime one = [](std::int64_t, std::int64_t) { return 1.0; };
  const MigrationCost zero = [](std::int64_t, std::int64_t) { return 0.0; };
  EXPECT_THROW(best_rebalance_points(0, one, zero), InputError);
  EXPECT_THROW(best_rebalance_points(kMaxHindsightIterations + 1, one, zero), InputError);
  const IterationTime nan = [](std::int64_t, std::int64_t) { return std::nan(""); };
  EXPECT_THROW(best_rebalance_points(3, nan, zero), std::invalid_argument);
  const MigrationCost negative = [](std::int64_t, std::int64_t) { return -1.0; };
  EXPECT_THROW(best_rebalance_points(3, one, negative), std::invalid_argument);
  EXPECT_THROW(schedule_of_points(5, {3, 2}, one, zero), InputError);
  EXPECT_THROW(schedule_of_points(5, {5}, one, zero), InputError);
  EXPECT_THROW(schedule_of_points(5, {0}, one, zero), InputError);
  EXPECT_THROW(schedule_of_points(5, {2, 2}, one, zero), InputError);
  EXPECT_NO_THROW(schedule_of_points(5, {1, 4}, one, zero));
}

}  // namespace
}  // namespace redist::balance
