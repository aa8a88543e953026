#include "redist/ring/planner.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

bool applies(const std::string& algorithm, const Instance& in) {
  if (algorithm == "unidirectional") return !in.bidirectional;
  if (algorithm == "bidirectional-homogeneous") return in.bidirectional && in.homogeneous();
  if (algorithm == "light" || algorithm == "light-enforced") return in.bidirectional;
  if (algorithm == "exact") return in.size() <= 5;
  return true;  // heuristic, auto
}

// Every algorithm on every case it applies to, through the dispatcher: valid plans, transfers in
// the documented order, makespan never below System 6's bound, and `optimal` only when proven.
TEST(PlannerProperty, EveryAlgorithmOnEveryCase) {
  std::mt19937_64 rng(51);
  int plans = 0;
  for (int trial = 0; trial < 10'000; ++trial) {
    testkit::RandomRingOptions o;
    o.bidirectional = trial % 3 != 0;
    o.homogeneous = trial % 3 == 1;
    o.load_min = o.target_min = trial % 2;
    o.n_max = trial % 4 == 0 ? 5 : 40;
    o.load_max = trial % 4 == 0 ? 3 : 300;
    const Instance in = testkit::random_ring(rng, o);
    const double bound = system6_integer_optimum(in).tau;
    for (const std::string& algorithm : ring_algorithm_names()) {
      if (!applies(algorithm, in)) continue;
      Schedule s;
      try {
        s = plan_ring(in, algorithm);
      } catch (const InputError& e) {
        ASSERT_EQ(algorithm, "exact") << e.what();  // only exact may refuse (its size limits)
        continue;
      }
      ++plans;
      const ValidationResult v = validate_schedule(in, s);
      ASSERT_TRUE(v.valid) << algorithm << ", trial " << trial << ": " << v.reason;
      ASSERT_GE(s.makespan, bound * (1 - 1e-9)) << algorithm << ", trial " << trial;
      for (std::size_t k = 1; k < s.transfers.size(); ++k) {
        const ring::Run& a = s.transfers[k - 1];
        const ring::Run& b = s.transfers[k];
        ASSERT_TRUE(a.from < b.from || (a.from == b.from && a.start <= b.start)) << algorithm;
      }
      if (s.optimal.value_or(false) && algorithm != "exact" && algorithm != "auto") {
        ASSERT_NEAR(s.makespan, *s.lower_bound, 1e-9 * s.makespan) << algorithm;
      }
    }
  }
  EXPECT_GT(plans, 40'000);
}

// auto is never worse than any other applicable algorithm.
TEST(PlannerProperty, AutoIsTheBestApplicable) {
  std::mt19937_64 rng(52);
  testkit::RandomRingOptions o;
  o.bidirectional = true;
  o.n_max = 12;
  o.load_min = o.target_min = 0;
  o.load_max = 40;
  for (int trial = 0; trial < 2000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const Schedule best = plan_ring(in, "auto");
    for (const char* other : {"light", "light-enforced", "heuristic"}) {
      ASSERT_LE(best.makespan, plan_ring(in, other).makespan * (1 + 1e-9)) << other << " " << trial;
    }
  }
}

TEST(Planner, UnknownAndInapplicableAlgorithmsAreInputErrors) {
  Instance uni;
  uni.loads = {2, 0};
  uni.targets = {1, 1};
  uni.cost_next = {1, 1};
  EXPECT_THROW(plan_ring(uni, "fastest"), InputError);
  EXPECT_THROW(plan_ring(uni, "light"), InputError);
  EXPECT_THROW(plan_ring(uni, "bidirectional-homogeneous"), InputError);
  EXPECT_EQ(plan_ring(uni, "auto").algorithm, "unidirectional");
}

}  // namespace
}  // namespace redist::ring
