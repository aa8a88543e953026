// The differential campaign (docs/reliability.md, "Differential campaign"): every family's
// planners on small instances at extreme magnitudes, each plan re-checked by its family's
// validator, and every claim compared with what the other planners and an independent brute
// force found:
//  - no lower bound above a valid plan's makespan (any algorithm's) or above the brute-force
//    optimum;
//  - every `optimal: true` at most every other algorithm's makespan, and equal to the brute-force
//    optimum where one exists (ring: a search over unit time steps; star: every count of tasks
//    moved; SliceRing: every ring);
//  - the balance oracle at most every policy's total.
// Magnitudes: costs and speeds scaled by factors from 1e-200 to 1e200 (the models are linear in
// them, so the integer brute force scales exactly), SliceRing cycle-times spanning 200 orders.
// Each test prints its counts (instances, plans, claims checked, violations) for the docs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "redist/balance/oracle.hpp"
#include "redist/balance/policy.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/dlt/validate.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/lau/planner.hpp"
#include "redist/lau/validate.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/random_exchange.hpp"
#include "redist/testing/random_lau.hpp"
#include "redist/testing/ring_brute_force.hpp"
#include "redist/testing/slicering_brute_force.hpp"
#include "redist/testing/star_brute_force.hpp"

namespace redist {
namespace {

constexpr double kEps = 1e-9;
constexpr double kScales[] = {1e-200, 1e-20, 1.0, 1e20, 1e200};

// What a family's campaign did, printed for the docs.
struct Tally {
  const char* family;
  std::int64_t instances = 0, plans = 0, claims = 0, violations = 0;
  ~Tally() {
    std::printf(
        "differential %s: %lld instances, %lld plans, %lld claims checked, %lld violations\n",
        family, static_cast<long long>(instances), static_cast<long long>(plans),
        static_cast<long long>(claims), static_cast<long long>(violations));
  }
  // One comparison: `ok` or a violation (reported once through gtest).
  void claim(bool ok, const std::string& what) {
    ++claims;
    if (ok) return;
    ++violations;
    ADD_FAILURE() << family << ": " << what;
  }
};

// The claims of the valid plans of one instance, against each other and `reference` (the
// brute-force optimum, NaN when there is none).
void compare(Tally& t, const std::vector<PlanClaims>& plans, double reference,
             const std::string& where) {
  double best = std::numeric_limits<double>::infinity();
  for (const PlanClaims& p : plans) best = std::min(best, p.makespan);
  if (!std::isnan(reference)) {
    t.claim(best >= reference * (1 - kEps), where + ": a plan below the brute-force optimum");
    best = std::min(best, reference);
  }
  for (const PlanClaims& p : plans) {
    t.claim(p.lower_bound <= best * (1 + kEps), where + ": lower bound above a valid plan");
    if (!p.optimal) continue;
    t.claim(p.makespan <= best * (1 + kEps), where + ": optimal but another plan is shorter");
    if (!std::isnan(reference)) {
      t.claim(p.makespan >= reference * (1 - kEps), where + ": optimal below the brute force");
    }
  }
  t.plans += static_cast<std::int64_t>(plans.size());
  ++t.instances;
}

// Not vacuous: at least `instances` instances compared, and at least `plans` plans among them (a
// campaign whose planners all refused, or whose instances were all skipped, fails here).
void expect_compared(const Tally& t, std::int64_t instances, std::int64_t plans) {
  EXPECT_GE(t.instances, instances) << t.family;
  EXPECT_GE(t.plans, plans) << t.family;
}

// The verdict on `plan` with its transfers reversed, then shuffled, is `valid`: no validator's
// verdict depends on the order of a plan's entries.
template <class Plan, class Check>
void claim_order_free(Tally& t, Plan plan, bool valid, const Check& check, std::mt19937_64& rng,
                      const std::string& name) {
  std::reverse(plan.transfers.begin(), plan.transfers.end());
  t.claim(check(plan).valid == valid, name + ": the verdict flips when the transfers are reversed");
  std::shuffle(plan.transfers.begin(), plan.transfers.end(), rng);
  t.claim(check(plan).valid == valid, name + ": the verdict flips when the transfers are shuffled");
}

template <class Plan>
void keep_if(std::vector<PlanClaims>& out, Tally& t, const Plan& plan, bool valid,
             const std::string& why) {
  t.claim(valid, "invalid plan: " + why);
  if (valid) out.push_back(plan);
}

TEST(Differential, RingClaimsAgainstBruteForceAtEveryScale) {
  Tally t{"ring"};
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 120; ++trial) {
    ring::Instance base;
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 3);
    std::uniform_int_distribution<std::int64_t> load(0, 5), cost(1, 4);
    base.bidirectional = trial % 2 == 1;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) total += base.loads.emplace_back(load(rng));
    base.targets.assign(n, total / static_cast<std::int64_t>(n));
    base.targets[0] += total % static_cast<std::int64_t>(n);
    for (std::size_t i = 0; i < n; ++i) {
      base.cost_next.push_back(static_cast<double>(cost(rng)));
      if (base.bidirectional) base.cost_prev.push_back(static_cast<double>(cost(rng)));
    }
    const int brute = testkit::brute_force_optimum(base);
    ASSERT_GE(brute, 0);
    for (const double s : kScales) {
      ring::Instance in = base;
      for (double& c : in.cost_next) c *= s;
      for (double& c : in.cost_prev) c *= s;
      std::vector<PlanClaims> plans;
      for (const auto& [name, description] : ring::ring_algorithm_names()) {
        ring::Schedule plan;
        try {
          plan = ring::plan(in, {name});
        } catch (const InputError&) {
          continue;  // refused for this instance (a unidirectional-only planner, limits)
        }
        const CheckResult v = ring::check(in, plan);
        claim_order_free(
            t, plan, v.valid, [&](const ring::Schedule& p) { return ring::check(in, p); }, rng,
            name);
        keep_if(plans, t, plan, v.valid, name + ": " + v.reason);
      }
      compare(t, plans, brute * s, "ring trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 600, 2000);
}

TEST(Differential, StarClaimsAgainstBruteForceAtEveryScale) {
  Tally t{"star"};
  std::mt19937_64 rng(2027);
  const int trials = testkit::random_cases(150);
  for (int trial = 0; trial < trials; ++trial) {
    star::Instance base;
    const std::size_t p = 2 + static_cast<std::size_t>(trial % 2);
    std::uniform_int_distribution<std::int64_t> load(0, 3), cw(1, 9);
    for (std::size_t i = 0; i < p; ++i) {
      base.loads.push_back(load(rng));
      base.c.push_back(static_cast<double>(cw(rng)));
      base.w.push_back(static_cast<double>(trial % 2 ? cw(rng) : 5));
    }
    const double brute = testkit::star_brute_force_optimum(base);
    for (const double s : kScales) {
      star::Instance in = base;
      for (double& c : in.c) c *= s;
      for (double& w : in.w) w *= s;
      std::vector<PlanClaims> plans;
      for (const star::AlgorithmName& a : star::algorithm_names()) {
        star::Schedule plan;
        try {
          plan = star::plan(in, {a.name});
        } catch (const InputError&) {
          continue;
        }
        const CheckResult v = star::check(in, plan);
        claim_order_free(
            t, plan, v.valid, [&](const star::Schedule& p) { return star::check(in, p); }, rng,
            a.name);
        keep_if(plans, t, plan, v.valid, a.name + ": " + v.reason);
      }
      compare(t, plans, brute * s, "star trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 5 * trials, 30 * trials);
}

TEST(Differential, SliceRingClaimsAgainstEveryRingOverTwoHundredOrders) {
  Tally t{"slicering"};
  std::mt19937_64 rng(2028);
  std::uniform_real_distribution<double> exponent(-100.0, 100.0);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t p = 2 + static_cast<std::size_t>(trial % 4);
    slicering::Cluster cl = slicering::testing::random_cluster(rng, p, 100.0, 1.0);
    for (double& w : cl.w) w *= std::pow(10.0, std::round(exponent(rng)) * (trial % 3 == 0));
    for (std::size_t q = 1; q <= p; ++q) {
      double brute = std::numeric_limits<double>::quiet_NaN();
      try {
        brute = slicering::testing::brute_force_t_step(cl, q);
      } catch (const InputError&) {
        continue;  // times beyond the double range: refused, naming the field
      }
      std::vector<PlanClaims> plans;
      for (const auto& [name, description] : slicering::slicering_algorithm_names()) {
        slicering::Solution s;
        try {
          s = slicering::plan(cl, {name, q});
        } catch (const InputError&) {
          continue;
        }
        const CheckResult v = slicering::check(cl, s);
        keep_if(plans, t, s, v.valid, name + ": " + v.reason);
      }
      compare(t, plans, brute, "slicering trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 650, 2000);
}

TEST(Differential, LauClaimsAgainstEachOther) {
  Tally t{"lau"};
  std::mt19937_64 rng(2029);
  for (int trial = 0; trial < 400; ++trial) {
    const lau::Instance in = testkit::random_lau(rng, {2, 9, trial % 2 ? 3 : 2'000'000'000'000});
    for (const lau::Mode mode : {lau::Mode::single, lau::Mode::multi}) {
      std::vector<PlanClaims> plans;
      for (const lau::AlgorithmName& a : lau::algorithm_names()) {
        lau::Plan plan;
        try {
          plan = lau::plan(in, {a.name, mode});
        } catch (const InputError&) {
          continue;  // refused up front (optimal-window on a huge deficit window)
        }
        if (!std::isfinite(plan.makespan)) continue;  // a deadlocking schedule: nothing to compare
        const CheckResult v = lau::check(in, plan);
        keep_if(plans, t, plan, v.valid, a.name + ": " + v.reason);
      }
      compare(t, plans, std::numeric_limits<double>::quiet_NaN(),
              "lau trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 800, 3000);
}

TEST(Differential, DltClaimsAtEveryScale) {
  Tally t{"dlt"};
  std::mt19937_64 rng(2030);
  std::uniform_real_distribution<double> u(0.5, 2.0), a(0.0, 10.0);
  for (int trial = 0; trial < 100; ++trial) {
    dlt::Instance base;
    for (std::size_t i = 0; i < 2 + static_cast<std::size_t>(trial % 4); ++i) {
      base.b.push_back(u(rng)), base.s.push_back(u(rng)), base.alpha.push_back(a(rng));
    }
    for (const double s : kScales) {
      dlt::Instance in = base;
      for (double& x : in.alpha) x *= s;  // times scale with the loads
      std::vector<PlanClaims> plans;
      for (const dlt::Solver solver : {dlt::Solver::fast, dlt::Solver::lp}) {
        dlt::Schedule plan;
        try {
          plan = dlt::plan(in, {solver});
        } catch (const InputError&) {
          continue;
        }
        const CheckResult v = dlt::check(in, plan);
        claim_order_free(
            t, plan, v.valid, [&](const dlt::Schedule& p) { return dlt::check(in, p); }, rng,
            "dlt");
        keep_if(plans, t, plan, v.valid, v.reason);
      }
      compare(t, plans, std::numeric_limits<double>::quiet_NaN(),
              "dlt trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 500, 1000);
}

// Every exchange algorithm on `in`: each plan valid, with one verdict for its pieces reversed and
// shuffled, and its claims compared with the others'.
void exchange_claims(Tally& t, const exchange::Instance& in, std::mt19937_64& rng,
                     const std::string& where) {
  std::vector<PlanClaims> plans;
  for (const exchange::AlgorithmName& a : exchange::kAlgorithms) {
    exchange::Plan plan;
    try {
      plan = exchange::plan(in, a.name);
    } catch (const InputError&) {
      continue;  // does not apply (a backbone, the exact solver's limits)
    }
    const CheckResult v = exchange::check(in, plan);
    exchange::Plan reordered = plan;  // the verdict of any order of the same pieces is one
    std::reverse(reordered.pieces.begin(), reordered.pieces.end());
    t.claim(exchange::check(in, reordered).valid == v.valid,
            std::string(a.name) + ": the verdict flips when the pieces are reversed");
    std::shuffle(reordered.pieces.begin(), reordered.pieces.end(), rng);
    t.claim(exchange::check(in, reordered).valid == v.valid,
            std::string(a.name) + ": the verdict flips when the pieces are shuffled");
    keep_if(plans, t, plan, v.valid, std::string(a.name) + ": " + v.reason);
  }
  compare(t, plans, std::numeric_limits<double>::quiet_NaN(), where);
}

TEST(Differential, ExchangeClaimsAtEveryScale) {
  Tally t{"exchange"};
  std::mt19937_64 rng(2031);
  for (int trial = 0; trial < 60; ++trial) {
    testkit::RandomExchangeOptions o;
    o.nodes_min = 2, o.nodes_max = 4, o.partners = 1, o.bytes_max = 20;
    o.latency = trial % 2 ? 0.5 : 0.0;
    const exchange::Instance base = testkit::random_exchange(rng, o);
    for (const double s : kScales) {
      exchange::Instance in = base;  // bandwidths divided by s: every time multiplied by s
      for (double& b : in.send_bandwidth) b /= s;
      for (double& b : in.recv_bandwidth) b /= s;
      in.latency *= s;
      exchange_claims(t, in, rng, "exchange trial " + std::to_string(trial));
    }
  }
  expect_compared(t, 300, 2400);
}

// Durations spanning 16 orders of magnitude within one instance (bytes and bandwidths each over 8),
// moved to 1e102..1e118 and to 1e-210..1e-194: a short piece vanishes against a long one in a
// double, and every planner's plan must still pass the validator in any order.
TEST(Differential, ExchangeDurationsSpanningSixteenOrders) {
  Tally t{"exchange spread"};
  std::mt19937_64 rng(2032);
  for (int trial = 0; trial < testkit::random_cases(120); ++trial) {
    testkit::RandomExchangeOptions o;
    o.nodes_min = 2, o.nodes_max = 6, o.partners = 3, o.bytes_max = 100'000'000;
    o.bandwidth_spread = 1e8;
    const exchange::Instance base = testkit::random_exchange(rng, o);
    for (const double s : {1e-110, 1e202}) {
      exchange::Instance in = base;
      for (double& b : in.send_bandwidth) b *= s;
      for (double& b : in.recv_bandwidth) b *= s;
      in.latency = trial % 3 == 0 ? 1e8 / s : 0.0;
      exchange_claims(t, in, rng, "exchange spread trial " + std::to_string(trial));
    }
  }
  expect_compared(t, testkit::random_cases(120) * 2, testkit::random_cases(120) * 12);
}

TEST(Differential, BalanceOracleBelowEveryPolicyOnExtremeTraces) {
  Tally t{"balance"};
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    balance::TraceSpec spec;
    spec.drift = static_cast<balance::Drift>(seed % 3);
    spec.processors = 2 + seed % 4;
    spec.iterations = 2 + static_cast<std::int64_t>(seed % 9);
    spec.items = 1 + static_cast<std::int64_t>(seed * 37 % 200);
    spec.ratio = std::pow(10.0, static_cast<double>(seed % 9) * 25.0 - 100.0);
    spec.seed = seed;
    balance::Trace trace;
    try {
      trace = balance::random_trace(spec);
    } catch (const InputError&) {
      continue;
    }
    const double oracle = balance::hindsight_optimum(trace).total_time;
    for (const std::string& name : balance::policy_names()) {
      if (name.find(':') != std::string::npos || name == "oracle") continue;
      const double total = balance::simulate(trace, name).total_time;
      t.claim(oracle <= total * (1 + kEps),
              "oracle above " + name + " (seed " + std::to_string(seed) + ")");
      ++t.plans;
    }
    ++t.instances;
  }
  expect_compared(t, 110, 700);
}

}  // namespace
}  // namespace redist
