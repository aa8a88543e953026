#include "redist/star/rbsa.hpp"

#include <random>

#include <gtest/gtest.h>

#include "redist/star/deadline_phases.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/star_checks.hpp"

namespace redist::star {
namespace {

using testkit::expect_valid_star;

TEST(StarRbsa, TraceOfSection42) {
  const Instance in{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}};
  const Schedule s = plan_rbsa(in);
  expect_valid_star(in, s);
  EXPECT_DOUBLE_EQ(s.makespan, 13);
  EXPECT_TRUE(rbsa_decide(in, 13).has_value());
}

TEST(StarRbsa, ValidOnRandomPlatforms) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 12, 0, 300});
    const Schedule s = plan_rbsa(in);
    expect_valid_star(in, s);
    EXPECT_LE(s.makespan, no_transfer_schedule(in, "").makespan);
  }
}

// The straightforward O(L m) Phase 4, as first written from §3.5.
std::optional<std::vector<std::size_t>> naive_receivers(const Instance& in, double M,
                                                        const SenderPhase& p) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  std::vector<double> begin(in.workers(), M);
  std::vector<std::size_t> receivers(need);
  double T = M;
  for (std::size_t k = need; k-- > 0;) {
    std::size_t chosen = in.workers();
    double best = -1e300;
    for (std::size_t r : p.receivers) {
      const double compute_start = begin[r] - in.w[r];
      if (compute_start < static_cast<double>(in.loads[r]) * in.w[r]) continue;
      const double start = std::min(compute_start, T) - in.c[r];
      if (start > best) best = start, chosen = r;
    }
    if (chosen == in.workers() || best < p.arrival[k]) return std::nullopt;
    begin[chosen] -= in.w[chosen];
    T = best;
    receivers[k] = chosen;
  }
  return receivers;
}

TEST(StarRbsa, HeapsEqualTheStraightforwardPhase4) {
  std::mt19937_64 rng(9);
  int placed = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    const Instance in = random_instance(rng, type, {1, 10, 0, 200});
    const double M = no_transfer_schedule(in, "").makespan * (0.3 + 0.7 * (rng() % 1000) / 1000.0);
    const SenderPhase p = sender_phase(in, M, false);
    if (!p.ok) continue;
    const auto fast = rbsa_receivers(in, M, p);
    const auto naive = naive_receivers(in, M, p);
    ASSERT_EQ(fast.has_value(), naive.has_value()) << trial;
    if (fast) {
      EXPECT_EQ(*fast, *naive) << trial;
      ++placed;
    }
  }
  EXPECT_GT(placed, 1000);
}

TEST(StarRbsa, EdgeCases) {
  for (const Instance& in : {Instance{{1}, {1}, {5}}, Instance{{1, 1}, {1, 1}, {0, 0}},
                             Instance{{1, 1}, {1, 1}, {3, 3}}}) {
    const Schedule s = plan_rbsa(in);
    expect_valid_star(in, s);
    EXPECT_TRUE(s.transfers.empty());
  }
}

}  // namespace
}  // namespace redist::star
