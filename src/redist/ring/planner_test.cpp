#include "redist/ring/planner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "redist/common/error.hpp"
#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_cases.hpp"
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
  for (int trial = 0; trial < testkit::random_cases(10'000); ++trial) {
    testkit::RandomRingOptions o;
    o.bidirectional = trial % 3 != 0;
    o.homogeneous = trial % 3 == 1;
    o.load_min = o.target_min = trial % 2;
    o.n_max = trial % 4 == 0 ? 5 : 40;
    o.load_max = trial % 4 == 0 ? 3 : 300;
    const Instance in = testkit::random_ring(rng, o);
    const double bound = system6_integer_optimum(in).tau;
    for (const auto& [algorithm, description] : ring_algorithm_names()) {
      if (!applies(algorithm, in)) continue;
      Schedule s;
      try {
        s = plan(in, {algorithm});
      } catch (const InputError& e) {
        ASSERT_EQ(algorithm, "exact") << e.what();  // only exact may refuse (its size limits)
        continue;
      }
      ++plans;
      const CheckResult v = check(in, s);
      ASSERT_TRUE(v.valid) << algorithm << ", trial " << trial << ": " << v.reason;
      ASSERT_GE(s.makespan, bound * (1 - 1e-9)) << algorithm << ", trial " << trial;
      for (std::size_t k = 1; k < s.transfers.size(); ++k) {
        const ring::Run& a = s.transfers[k - 1];
        const ring::Run& b = s.transfers[k];
        ASSERT_TRUE(a.from < b.from || (a.from == b.from && a.start <= b.start)) << algorithm;
      }
      if (s.optimal && algorithm != "exact" && algorithm != "auto") {
        ASSERT_NEAR(s.makespan, s.lower_bound.value(), 1e-9 * s.makespan) << algorithm;
      }
    }
  }
  EXPECT_GE(plans, testkit::random_cases(40'000));
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
    const Schedule best = plan(in, {"auto"});
    for (const char* other : {"light", "light-enforced", "heuristic"}) {
      ASSERT_LE(best.makespan, plan(in, {other}).makespan * (1 + 1e-9)) << other << " " << trial;
    }
  }
}

TEST(Planner, UnknownAndInapplicableAlgorithmsAreInputErrors) {
  Instance uni;
  uni.loads = {2, 0};
  uni.targets = {1, 1};
  uni.cost_next = {1, 1};
  EXPECT_THROW(plan(uni, {"fastest"}), InputError);
  EXPECT_THROW(plan(uni, {"light"}), InputError);
  EXPECT_THROW(plan(uni, {"bidirectional-homogeneous"}), InputError);
  EXPECT_EQ(plan(uni, {"auto"}).algorithm, "unidirectional");
}

Instance bidirectional_ring(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
                            std::vector<double> cost_next, std::vector<double> cost_prev) {
  Instance in;
  in.bidirectional = true;
  in.loads = std::move(loads);
  in.targets = std::move(targets);
  in.cost_next = std::move(cost_next);
  in.cost_prev = std::move(cost_prev);
  return in;
}

// --time-limit: refused unless a finite number > 0; one that has passed at once stops exact's
// search (auto's and exact's) with a valid schedule, a note, and optimal only when a bound proves
// it.
TEST(Planner, TimeLimit) {
  const Instance in = bidirectional_ring({4, 0, 3, 0, 5, 0}, {2, 2, 2, 2, 2, 2}, {1, 2, 3, 1, 2, 3},
                                         {3, 1, 2, 2, 1, 3});
  for (double bad : {0.0, -1.0, double(INFINITY), double(NAN)}) {
    try {
      plan(in, {"exact", Solver::fast, bad});
      ADD_FAILURE() << bad;
    } catch (const OptionError& e) {
      EXPECT_EQ(e.path(), "time_limit");
    }
  }
  for (const std::string algorithm : {"exact", "auto"}) {
    const Schedule unlimited = plan(in, {algorithm});
    const Schedule s = plan(in, {algorithm, Solver::fast, 1e-9});
    const CheckResult v = check(in, s);
    ASSERT_TRUE(v.valid) << v.reason;
    EXPECT_GE(s.makespan, unlimited.makespan - 1e-9) << algorithm;
    EXPECT_LE(s.lower_bound, unlimited.makespan + 1e-9) << algorithm;
    EXPECT_EQ(s.optimal, s.makespan <= s.lower_bound.value() + 1e-9) << algorithm;
    bool noted = false;
    for (const std::string& note : s.notes) noted = noted || note.find("time limit") != note.npos;
    EXPECT_TRUE(s.optimal || noted) << algorithm;
    EXPECT_EQ(s.status, s.optimal ? Status::optimal : Status::time_limit) << algorithm;
    // A generous limit changes nothing.
    EXPECT_EQ(plan(in, {algorithm, Solver::fast, 3600.0}).makespan, unlimited.makespan);
  }
}

// A plan beyond Lemma 12's limit says that the term was skipped, and why.
TEST(ResourceLimits, PlanNotesTheSkippedLemma12) {
  std::mt19937_64 rng(77);
  testkit::RandomRingOptions o;
  o.n_min = o.n_max = kLemma12MaxProcessors + 1;
  o.bidirectional = true;
  const Schedule s = plan(testkit::random_ring(rng, o));
  ASSERT_FALSE(s.bound_terms.empty());
  EXPECT_EQ(s.bound_terms[0].name, "lemma12");
  EXPECT_FALSE(s.bound_terms[0].value.has_value());
  bool noted = false;
  for (const std::string& note : s.notes) noted = noted || note.starts_with("lemma12 skipped:");
  EXPECT_TRUE(noted);
}

// `auto` used to refuse homogeneous bidirectional rings beyond Algorithm 3's round limit; it now
// plans them by the heterogeneous path, valid and proven optimal by the Lemma 6 bound.
TEST(ResourceLimits, AutoPlansHomogeneousRingsBeyondAlgorithm3RoundLimit) {
  const Instance in = bidirectional_ring(
      {3'000'000'000, 0, 0}, {1'000'000'000, 1'000'000'000, 1'000'000'000}, {1, 1, 1}, {1, 1, 1});
  EXPECT_FALSE(bidirectional_homogeneous_applies(in));
  EXPECT_THROW(plan(in, {"bidirectional-homogeneous"}), InputError);
  const Schedule s = plan(in, {"auto"});
  const CheckResult v = check(in, s);
  ASSERT_TRUE(v.valid) << v.reason;
  EXPECT_EQ(s.makespan, 2e9);  // P0 sends 10^9 items each way through its one send port
  EXPECT_EQ(s.lower_bound, 2e9);
  EXPECT_TRUE(s.optimal);
}

TEST(ResourceLimits, AutoPlansAMillionProcessorHomogeneousRing) {
  const std::size_t n = testkit::sanitized() ? 100'000 : 1'000'000;
  Instance in =
      bidirectional_ring({}, {}, std::vector<double>(n, 1.0), std::vector<double>(n, 1.0));
  for (std::size_t i = 0; i < n; ++i) in.loads.push_back(1 + static_cast<std::int64_t>(i % 100));
  in.targets.assign(n, 0);
  const std::int64_t total = 50 * static_cast<std::int64_t>(n) + static_cast<std::int64_t>(n) / 2;
  for (std::size_t i = 0; i < n; ++i) in.targets[i] = total / static_cast<std::int64_t>(n);
  in.targets[0] += total % static_cast<std::int64_t>(n);
  EXPECT_FALSE(bidirectional_homogeneous_applies(in));
  const Schedule s = plan(in, {"auto"});
  const CheckResult v = check(in, s);
  ASSERT_TRUE(v.valid) << v.reason;
  EXPECT_GE(s.lower_bound, lemma6_bound(in));
  EXPECT_EQ(s.optimal, s.makespan <= s.lower_bound.value() * (1 + 1e-9));
}

// Finite costs whose products overflow a double: refused up front, naming the cost.
TEST(Overflow, PlansAndBoundsRefuseCostsWhoseTimesOverflow) {
  const Instance huge = bidirectional_ring({3, 0, 0}, {1, 1, 1}, {1e308, 1e308, 1e308}, {1, 1, 1});
  for (const auto& [algorithm, description] : ring_algorithm_names()) {
    try {
      plan(huge, {algorithm});
      ADD_FAILURE() << algorithm << " accepted times beyond the largest double";
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "cost_next[0]") << algorithm;
    }
  }
  EXPECT_THROW(bounds(huge), InputError);
  // Costs 600 orders of magnitude apart: the gap could not be written.
  const Instance spread =
      bidirectional_ring({3, 0, 0}, {1, 1, 1}, {1e300, 1e-300, 1}, {1e-300, 1, 1e300});
  try {
    plan(spread, {"auto"});
    ADD_FAILURE() << "accepted costs 1e300 and 1e-300";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "cost_next[1]");
  }
}

// Extreme but representable instances: every algorithm gives a valid plan with finite numbers.
TEST(Overflow, ExtremeButRepresentableInstancesGiveFiniteValidPlans) {
  const std::int64_t big = std::int64_t{1} << 61;
  const std::vector<Instance> cases = {
      bidirectional_ring({3, 0, 0}, {1, 1, 1}, {1e-300, 1e-300, 1e-300}, {1e-300, 1e-300, 1e-300}),
      bidirectional_ring({3, 0, 0}, {1, 1, 1}, {1e-300, 2e-300, 1e-300}, {1e-290, 1e-300, 1e-299}),
      bidirectional_ring({big, 0}, {0, big}, {1e200, 3e200}, {2e200, 1e200}),
      bidirectional_ring({big, 1, 0}, {1, 0, big}, {1, 1e10, 1}, {1e-5, 1, 1}),
      bidirectional_ring({2 * big, 0, 0, 0}, {0, big, big, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}),
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Instance& in = cases[k];
    const double bound = bounds(in).lower_bound;
    EXPECT_TRUE(std::isfinite(bound)) << k;
    for (const char* algorithm : {"auto", "light", "light-enforced", "heuristic"}) {
      for (Solver solver : {Solver::fast, Solver::lp}) {
        Schedule s;
        try {
          s = plan(in, {algorithm, solver});
        } catch (const InputError& e) {
          // Only the LP may give up (its round-off on counts near 2^62), naming --solver.
          ASSERT_EQ(solver, Solver::lp) << e.what();
          EXPECT_EQ(e.path(), "solver");
          continue;
        }
        const CheckResult v = check(in, s);
        ASSERT_TRUE(v.valid) << k << " " << algorithm << ": " << v.reason;
        EXPECT_TRUE(std::isfinite(s.makespan) && s.makespan > 0) << k << " " << algorithm;
        EXPECT_LE(s.lower_bound, s.makespan * (1 + 1e-9)) << k << " " << algorithm;
        EXPECT_LE(bound, s.makespan * (1 + 1e-9)) << k << " " << algorithm;
        if (s.optimal) {
          EXPECT_LE(s.makespan, s.lower_bound.value() * (1 + 1e-9));
        }
      }
    }
  }
}

// Counts near 2^61: a chain's release time (an item cost past 8e17) rounded onto the start of
// another chain, and `auto` printed a schedule the validator refuses (a receive-port overlap).
// Every plan is now valid, or refused naming the input.
TEST(PhysicalValidity, CountsNear2To61NeverGiveAnInvalidPlan) {
  const Instance in =
      bidirectional_ring({984194363420905423, 1249779348965218068, 372774498098098956},
                         {0, 0, 2606748210484222447}, {2, 0.5, 0.5}, {1, 2, 1});
  for (const char* algorithm : {"auto", "heuristic", "light", "light-enforced"}) {
    for (Solver solver : {Solver::fast, Solver::lp}) {
      try {
        const Schedule s = plan(in, {algorithm, solver});
        const CheckResult v = check(in, s);
        EXPECT_TRUE(v.valid) << algorithm << ": " << v.reason;
      } catch (const InputError& e) {
        EXPECT_TRUE(e.path() == "$.ring.loads" || e.path() == "--solver") << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace redist::ring
