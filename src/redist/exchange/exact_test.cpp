#include "redist/exchange/exact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <numeric>
#include <random>

#include "redist/common/error.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using testkit::uniform_exchange;

// The bundled preemption-pays instance: node 0 receives three messages of 2 bytes.
Instance preemption_pays(double latency) {
  return uniform_exchange(4, {{3, 0, 2}, {2, 3, 3}, {3, 1, 3}, {2, 0, 2}, {1, 0, 2}, {1, 2, 3}},
                          latency);
}

// The best schedule of whole messages: every order of the messages, each appended at the earliest
// time both its ports are free (this reaches every semi-active non-preemptive schedule).
double best_whole_by_permutations(const Instance& in) {
  std::vector<std::size_t> order(in.messages.size());
  std::iota(order.begin(), order.end(), 0);
  double best = 1e300;
  do {
    std::vector<double> send(in.nodes, 0.0), recv(in.nodes, 0.0);
    double end = 0.0;
    for (const std::size_t e : order) {
      const Message& m = in.messages[e];
      const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
      send[i] = recv[j] = std::max(send[i], recv[j]) + in.duration(m);
      end = std::max(end, send[i]);
    }
    best = std::min(best, end);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

void expect_valid_optimal(const Instance& in, const Plan& p) {
  const CheckResult r = check(in, p);
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_TRUE(p.optimal);
  EXPECT_EQ(p.algorithm, "exact");
  EXPECT_GE(p.lower_bound, bounds(in).lower_bound);
}

TEST(Exact, WithoutLatencyItIsThePreemptiveOptimum) {
  const Instance in = preemption_pays(0.0);
  const Plan p = plan_exact(in);
  expect_valid_optimal(in, p);
  EXPECT_NEAR(p.makespan, 6.0, 1e-12);
  EXPECT_EQ(p.proof, Proof::lower_bound);
}

// With latency 0.5, node 0's receive port is busy 7.5 s at least. No plan of whole messages
// reaches it (the best of the 720 orders ends at 8.5), nor does preemptive (one latency per
// matching); exact cuts one message whose ports have slack and meets the bound.
TEST(Exact, CutsAMessageWhenThatPays) {
  const Instance in = preemption_pays(0.5);
  const Plan p = plan_exact(in);
  expect_valid_optimal(in, p);
  EXPECT_NEAR(p.makespan, 7.5, 1e-9);
  EXPECT_EQ(p.pieces.size(), 7u);
  // Its plan meets the bound: the search stops there (it used to go on through every structure).
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("exact stopped at the lower bound after"), std::string::npos)
      << p.notes[0];
  EXPECT_EQ(p.proof, Proof::lower_bound);
  EXPECT_NEAR(best_whole_by_permutations(in), 8.5, 1e-12);
  EXPECT_GT(plan_preemptive(in).makespan, 8.0);
}

TEST(Exact, RefusesWhatItCannotSearch) {
  Instance backbone = uniform_exchange(2, {{0, 1, 5}}, 1.0);
  backbone.backbone = Backbone{{std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}}, 1};
  EXPECT_THROW(plan_exact(backbone), OptionError);
  std::vector<Message> many;
  for (std::int64_t j = 1; j < 10; ++j) many.push_back({0, j, 1});
  EXPECT_THROW(plan_exact(uniform_exchange(10, many, 1.0)), OptionError);
  // A latency tiny next to the transfers would let too many pieces pay.
  EXPECT_THROW(plan_exact(preemption_pays(1e-6)), OptionError);
  // At the instance limit (5 x 10^6 messages) the refusal comes before any work, validation
  // included.
  const Instance largest = testkit::circulant_exchange(kMaxMessages, 8, 1, 1.0);
  const std::clock_t started = std::clock();
  try {
    plan(largest, "exact");
    ADD_FAILURE() << "not refused";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.path(), "algorithm");
    EXPECT_EQ(e.message(), "exact searches instances of at most 8 messages; this one has 5000000");
  }
  EXPECT_LT(static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC, 0.05);
}

// Properties only a true optimum has, on random tiny instances: it is never above any other
// planner's plan nor the best whole-message schedule, it never decreases when the latency grows,
// and it never increases when a message is removed.
TEST(Exact, BehavesAsAnOptimumOnRandomTinyInstances) {
  std::mt19937_64 rng(41);
  testkit::RandomExchangeOptions o;
  o.nodes_min = 3;
  o.nodes_max = 4;
  o.partners = 3;
  o.bytes_max = 20;
  int searched = 0;  // instances where neither preemptive nor whole meets the bound
  for (int trial = 0; trial < 60; ++trial) {
    o.bandwidth_spread = trial % 2 == 0 ? 1.0 : 3.0;
    Instance in = testkit::random_exchange(rng, o);
    if (in.messages.size() > 6) in.messages.resize(6);
    double longest = 0;
    for (const Message& m : in.messages) longest = std::max(longest, in.duration(m));
    in.latency = longest * (trial % 3 == 0 ? 0.35 : 1.0);
    const Plan p = plan_exact(in);
    expect_valid_optimal(in, p);
    const double whole = best_whole_by_permutations(in);
    EXPECT_LE(p.makespan, whole * (1 + 1e-9)) << "trial " << trial;
    const double heuristic = std::min(plan_whole(in).makespan, plan_preemptive(in).makespan);
    searched += heuristic > bounds(in).lower_bound * (1 + 1e-9);
    EXPECT_LE(p.makespan, plan_preemptive(in).makespan * (1 + 1e-9)) << "trial " << trial;
    Instance slower = in;
    slower.latency *= 1.5;
    EXPECT_GE(plan_exact(slower).makespan, p.makespan * (1 - 1e-7)) << "trial " << trial;
    Instance fewer = in;
    fewer.messages.pop_back();
    EXPECT_LE(plan_exact(fewer).makespan, p.makespan * (1 + 1e-7)) << "trial " << trial;
  }
  EXPECT_GT(searched, 5);
}

// A time limit that has passed at the first check (every 16 structures) stops a search that
// needs more: its best plan, valid, the ports bound, and a note; optimal only by that bound. The
// preemption-pays instances need 56 structures to meet their bound at these latencies (random
// tiny instances meet it within 16, or at once, since the search stops at the bound).
TEST(Exact, TimeLimitReturnsTheBestPlanFound) {
  int stopped = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const Instance in = preemption_pays(0.4 + 0.1 * trial);
    const Plan full = plan_exact(in);
    const Plan p = plan_exact(in, Deadline(1e-9));
    const CheckResult r = check(in, p);
    ASSERT_TRUE(r.valid) << r.reason;
    EXPECT_GE(p.makespan, full.makespan * (1 - 1e-9));
    EXPECT_LE(p.lower_bound, full.makespan * (1 + 1e-9));
    const bool noted = !p.notes.empty() && p.notes[0].starts_with("time limit of 1e-09 s");
    stopped += noted;
    if (noted) {
      EXPECT_EQ(p.optimal, p.proof == Proof::lower_bound);
      EXPECT_EQ(p.status, p.optimal ? Status::optimal : Status::time_limit);
    }
    EXPECT_TRUE(p.consistent());
    if (!noted) {
      EXPECT_EQ(p.makespan, full.makespan);
    }
  }
  EXPECT_GT(stopped, 3);
}

}  // namespace
}  // namespace redist::exchange
