#include "redist/exchange/kpbs.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <limits>
#include <random>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/greedy_steps.hpp"
#include "redist/exchange/kpbs_peeling.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/ordered_execution.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/steps.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using testkit::uniform_exchange;

constexpr std::uint32_t kNoMate = 0xffffffffu;

// 0 -> 1 (4 s), 1 -> 2 (3 s), 0 -> 2 (2 s), latency 1.
Instance fork(std::optional<std::int64_t> transfers = std::nullopt) {
  Instance in = uniform_exchange(3, {{0, 1, 4}, {0, 2, 2}, {1, 2, 3}}, 1.0);
  if (transfers) in.backbone = Backbone{{std::vector<std::int64_t>{0}, {1, 2}}, *transfers};
  return in;
}

void expect_valid(const Instance& in, const Plan& p) {
  const CheckResult r = check(in, p);
  ASSERT_TRUE(r.valid) << p.algorithm << ": " << r.reason;
}

TEST(StepBound, EtaOfHandMadeInstances) {
  // k = min(2 senders, 2 receivers) = 2: eta_d = max(W = 6, P / k = 4.5), eta_s = max(2, 2).
  const StepStats free = step_bound(fork());
  EXPECT_EQ(step_capacity(fork()), 2u);
  EXPECT_DOUBLE_EQ(free.eta_d, 6.0);
  EXPECT_EQ(free.eta_s, 2u);
  EXPECT_DOUBLE_EQ(free.lower_bound, 8.0);
  // One transfer at a time: eta_d = P = 9, eta_s = m = 3.
  const StepStats one = step_bound(fork(1));
  EXPECT_EQ(step_capacity(fork(1)), 1u);
  EXPECT_DOUBLE_EQ(one.eta_d, 9.0);
  EXPECT_EQ(one.eta_s, 3u);
  EXPECT_DOUBLE_EQ(one.lower_bound, 12.0);
  EXPECT_EQ(step_bound(uniform_exchange(2, {}, 1.0)).lower_bound, 0.0);
}

TEST(GreedySteps, LongestFirstStepsOfHandMadeInstances) {
  // Step 1: 0 -> 1 and 1 -> 2 (1 + 4 s); step 2: 0 -> 2 (1 + 2 s): 8 = eta = the ports bound.
  const Plan p = plan_steps(fork());
  expect_valid(fork(), p);
  ASSERT_TRUE(p.steps);
  EXPECT_EQ(p.steps->count, 2u);
  EXPECT_DOUBLE_EQ(p.makespan, 8.0);
  EXPECT_DOUBLE_EQ(p.steps->lower_bound, 8.0);
  EXPECT_TRUE(p.optimal);
  // One transfer: one message a step, 5 + 4 + 3.
  const Plan one = plan_steps(fork(1));
  expect_valid(fork(1), one);
  EXPECT_EQ(one.steps->count, 3u);
  EXPECT_DOUBLE_EQ(one.makespan, 12.0);
}

TEST(Kpbs, OneMessageIsOneStep) {
  Instance in = uniform_exchange(2, {{0, 1, 10}}, 0.5);
  in.send_bandwidth = {2.0, 2.0};
  in.recv_bandwidth = {4.0, 2.0};
  for (const auto& planner : {plan_ggp, plan_oggp, plan_steps}) {
    const Plan p = planner(in);
    expect_valid(in, p);
    EXPECT_EQ(p.steps->count, 1u);
    EXPECT_DOUBLE_EQ(p.makespan, 5.5);
    EXPECT_DOUBLE_EQ(p.steps->lower_bound, 5.5);
    EXPECT_TRUE(p.optimal);
  }
}

TEST(Kpbs, NoMessageIsNoStep) {
  const Instance in = uniform_exchange(3, {}, 1.0);
  for (const auto& planner : {plan_ggp, plan_oggp, plan_steps}) {
    const Plan p = planner(in);
    EXPECT_TRUE(p.pieces.empty());
    EXPECT_EQ(p.steps->count, 0u);
    EXPECT_TRUE(p.optimal);
  }
}

TEST(Kpbs, OneTransferPutsOneMessageInEachStep) {
  const Instance in = fork(1);
  for (const auto& planner : {plan_ggp, plan_oggp}) {
    const Plan p = planner(in);
    expect_valid(in, p);
    for (std::size_t a = 0; a < p.pieces.size(); ++a) {
      for (std::size_t b = a + 1; b < p.pieces.size(); ++b) {
        EXPECT_NE(p.pieces[a].start, p.pieces[b].start) << "two pieces in one step";
      }
    }
    EXPECT_GE(p.makespan, 12.0 * (1 - 1e-12));
    EXPECT_LE(p.makespan, 2 * (12.0 + 1.0));
  }
}

// The k constraint: a regular graph whose messages all fit one matching, but only 2 may run.
TEST(Kpbs, StepsHoldAtMostKPiecesUnderABackbone) {
  Instance in = uniform_exchange(8, {{0, 4, 5}, {1, 5, 5}, {2, 6, 5}, {3, 7, 5}}, 1.0);
  in.backbone = Backbone{{std::vector<std::int64_t>{0, 1, 2, 3}, {4, 5, 6, 7}}, 2};
  for (const auto& planner : {plan_ggp, plan_oggp, plan_steps}) {
    const Plan p = planner(in);
    expect_valid(in, p);
    EXPECT_EQ(p.steps->lower_bound, 10.0 + 2.0);  // P / k = 10, ceil(m / k) = 2
    EXPECT_GE(p.steps->count, 2u);
  }
  EXPECT_DOUBLE_EQ(plan_oggp(in).makespan, 12.0);  // two steps of two whole messages
  EXPECT_EQ(plan_oggp(in).steps->count, 2u);
}

TEST(Kpbs, WithoutLatencyGgpMeetsThePreemptiveOptimum) {
  std::mt19937_64 rng(5);
  testkit::RandomExchangeOptions o;
  o.nodes_max = 16;
  for (int trial = 0; trial < 500; ++trial) {
    o.partners = 1 + static_cast<std::size_t>(trial % 7);
    o.bytes_max = trial % 2 == 0 ? 1000 : 1'000'000'000;
    const Instance in = testkit::random_exchange(rng, o);
    const Plan g = plan_ggp(in);
    expect_valid(in, g);
    EXPECT_TRUE(g.optimal) << "trial " << trial << ": " << g.makespan << " > "
                           << g.lower_bound.value();
    EXPECT_TRUE(same_time(g.makespan, plan_preemptive(in).makespan)) << "trial " << trial;
  }
}

// Reference matchings for the peeling: Kuhn's augmenting paths from scratch, over the positive
// edges of at least `threshold` units; true when they match every vertex.
bool perfect_at(const kpbs_peeling::Graph& g, std::int64_t threshold) {
  std::vector<std::vector<std::uint32_t>> right_of(g.vertices);
  for (const auto& e : g.edges) {
    if (e.remaining > 0 && e.remaining >= threshold) right_of[e.left].push_back(e.right);
  }
  std::vector<std::uint32_t> mate(g.vertices, kNoMate);
  std::vector<bool> seen;
  std::function<bool(std::uint32_t)> reach = [&](std::uint32_t u) {
    for (const std::uint32_t v : right_of[u]) {
      if (seen[v]) continue;
      seen[v] = true;
      if (mate[v] == kNoMate || reach(mate[v])) {
        mate[v] = u;
        return true;
      }
    }
    return false;
  };
  for (std::uint32_t u = 0; u < g.vertices; ++u) {
    seen.assign(g.vertices, false);
    if (!reach(u)) return false;
  }
  return true;
}

// The bottleneck value: the largest threshold among the distinct positive weights at which a
// perfect matching remains (binary search, a fresh matching per probe); 0 when none does.
std::int64_t reference_bottleneck(const kpbs_peeling::Graph& g) {
  std::vector<std::int64_t> weights;
  for (const auto& e : g.edges) {
    if (e.remaining > 0) weights.push_back(e.remaining);
  }
  std::sort(weights.begin(), weights.end());
  weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
  if (weights.empty() || !perfect_at(g, weights[0])) return 0;
  std::size_t low = 0, high = weights.size();  // weights[low] feasible, weights[high] not
  while (high - low > 1) {
    const std::size_t mid = low + (high - low) / 2;
    (perfect_at(g, weights[mid]) ? low : high) = mid;
  }
  return weights[low];
}

// The smallest weight of `matching` (one edge per left vertex) if it is a perfect matching of the
// positive edges of `g`, else 0.
std::int64_t smallest_if_perfect(const kpbs_peeling::Graph& g,
                                 const std::vector<std::uint32_t>& matching) {
  std::vector<bool> taken(g.vertices, false);
  std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
  for (std::uint32_t u = 0; u < g.vertices; ++u) {
    if (matching[u] >= g.edges.size()) return 0;
    const auto& e = g.edges[matching[u]];
    if (e.left != u || taken[e.right] || e.remaining <= 0) return 0;
    taken[e.right] = true;
    smallest = std::min(smallest, e.remaining);
  }
  return smallest;
}

// Every matching peeled is a perfect matching of the positive edges; oggp's are bottleneck ones
// (their smallest weight is the reference bottleneck value), at every step of every instance.
TEST(Kpbs, PeelingTakesPerfectAndForOggpBottleneckMatchings) {
  std::mt19937_64 rng(23);
  testkit::RandomExchangeOptions o;
  const double latencies[] = {0.0, 1.0, 30.0};
  std::size_t matchings[2] = {0, 0};
  for (int trial = 0; trial < 1000; ++trial) {
    o.nodes_max = trial % 10 == 0 ? 16 : 8;
    o.partners = 1 + static_cast<std::size_t>(trial % 5);
    o.bytes_max = trial % 2 == 0 ? 20 : 1000;  // few distinct weights, or many
    o.latency = latencies[trial % 3];
    o.backbone = trial % 4 == 0;
    const Instance in = testkit::random_exchange(rng, o);
    if (in.messages.empty()) continue;
    const kpbs_peeling::Graph graph = kpbs_peeling::graph_of(in, kpbs_peeling::units_of(in));
    for (const bool bottleneck : {false, true}) {
      kpbs_peeling::peel(graph, in.messages.size(), bottleneck,
                         [&](const kpbs_peeling::Graph& g, const std::vector<std::uint32_t>& m) {
                           const std::int64_t smallest = smallest_if_perfect(g, m);
                           ASSERT_GT(smallest, 0) << "trial " << trial;
                           if (bottleneck) {
                             ASSERT_EQ(smallest, reference_bottleneck(g)) << "trial " << trial;
                           }
                           ++matchings[bottleneck];
                         });
    }
  }
  std::printf("matchings checked: ggp %zu, oggp %zu\n", matchings[0], matchings[1]);
  EXPECT_GT(matchings[1], 5000u);
}

struct Ratios {
  double max = 0.0, sum = 0.0;
  int count = 0;
  void add(double r) {
    max = std::max(max, r);
    sum += r;
    ++count;
  }
};

// Every plan valid; eta below every step plan; ggp and oggp within the proven guarantee:
// makespan <= 2 (eta + latency), and <= 2 eta when k does not bind (no backbone).
TEST(Kpbs, RandomPlansAreValidAndWithinTheGuarantee) {
  std::mt19937_64 rng(11);
  testkit::RandomExchangeOptions o;
  const double latencies[] = {0.0, 0.01, 1.0, 30.0, 1000.0};
  Ratios ratio[3];
  const std::function<Plan(const Instance&)> planners[] = {plan_ggp, plan_oggp, plan_steps};
  for (int trial = 0; trial < 3000; ++trial) {
    o.nodes_max = trial % 10 == 0 ? 30 : 10;
    o.partners = 1 + static_cast<std::size_t>(trial % 6);
    o.bytes_max = trial % 7 == 0 ? kMaxMessageBytes : 1000;
    o.bandwidth_spread = trial % 4 == 0 ? 1.0 : 8.0;
    o.latency = latencies[trial % 5] * (o.bytes_max > 1000 ? 1e6 : 1.0);
    o.backbone = trial % 3 == 0;
    const Instance in = testkit::random_exchange(rng, o);
    for (int a = 0; a < 3; ++a) {
      const Plan p = planners[a](in);
      expect_valid(in, p);
      const double eta = p.steps->lower_bound;
      ASSERT_TRUE(at_most(eta, p.makespan)) << p.algorithm << " trial " << trial;
      EXPECT_GE(p.steps->count, p.steps->eta_s);
      if (a == 2) {
        ratio[a].add(p.makespan / eta);
        continue;
      }
      const double guarantee = in.backbone ? 2 * (eta + in.latency) : 2 * eta;
      EXPECT_TRUE(at_most(p.makespan, guarantee)) << p.algorithm << " trial " << trial;
      ratio[a].add(p.makespan / eta);
    }
  }
  for (int a = 0; a < 3; ++a) {
    std::printf("ratio to eta (%s): max %.4f mean %.4f over %d plans\n",
                a == 0   ? "ggp"
                : a == 1 ? "oggp"
                         : "steps",
                ratio[a].max, ratio[a].sum / ratio[a].count, ratio[a].count);
  }
}

// With a backbone, auto's plan runs no slower than whole's or oggp's on the executor (it also
// weighs busiest-first and, without latency, all-at-once); with every message crossing, the
// whole-message greedy leaves the transfers idle and auto's choice runs faster on most instances.
TEST(Kpbs, AutoUnderABackboneIsNoWorseThanWholeOrOggp) {
  std::mt19937_64 rng(3);
  std::bernoulli_distribution edge(0.5);
  int faster_than_whole = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Instance in = uniform_exchange(16, {}, trial % 2 == 0 ? 0.0 : 1.0);
    for (std::int64_t i = 0; i < 8; ++i) {
      for (std::int64_t j = 8; j < 16; ++j) {
        if (edge(rng)) in.messages.push_back({i, j, 1 + (i * 7 + j * 3 + trial) % 20});
      }
    }
    in.backbone = Backbone{
        {std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}, 3};
    const Plan a = plan(in, "auto");
    expect_valid(in, a);
    // auto ranks by the executor's run of each plan (ordered_execution.hpp).
    const auto run = [&](const Plan& p) { return ordered_execution_makespan(in, p); };
    const double either = std::min(run(plan_whole(in)), run(plan_oggp(in)));
    EXPECT_LE(run(a), either * (1 + 1e-12)) << "trial " << trial;
    faster_than_whole += run(a) < run(plan_whole(in)) * (1 - 1e-9);
  }
  EXPECT_GE(faster_than_whole, 10);
}

// The OptionError at "algorithm" that `run` throws; fails the test if it returns or throws another
// error, or if the refusal took more than a few milliseconds of CPU.
template <typename Run>
std::string refusal(Run run) {
  const std::clock_t started = std::clock();
  try {
    run();
  } catch (const OptionError& e) {
    EXPECT_EQ(e.path(), "algorithm");
    EXPECT_LT(static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC, 0.05) << e.what();
    return e.message();
  }
  ADD_FAILURE() << "not refused";
  return "";
}

TEST(Kpbs, RefusesInstancesBeyondItsMessageLimitBeforeAnyWork) {
  const Instance ggp_over = testkit::circulant_exchange(kMaxGgpMessages + 1, 8, 1000, 1.0);
  EXPECT_EQ(refusal([&] { plan_ggp(ggp_over); }),
            fmt::format("ggp: {} messages, more than the {} this algorithm plans (an augmenting "
                        "path for each edge of its graph used up, each over up to the whole "
                        "graph: quadratic time); use auto or whole",
                        kMaxGgpMessages + 1, kMaxGgpMessages));
  const Instance oggp_over = testkit::circulant_exchange(kMaxOggpMessages + 1, 8, 1000, 1.0);
  EXPECT_EQ(refusal([&] { plan(oggp_over, "oggp"); }),
            fmt::format("oggp: {} messages, more than the {} this algorithm plans (a widest "
                        "augmenting path for each edge that leaves its bottleneck matching, each "
                        "over up to the whole graph); use auto or whole",
                        kMaxOggpMessages + 1, kMaxOggpMessages));
  // steps: 800,000 messages, 2,000 from each of nodes 0..399, past 1.5e9 messages x Delta.
  const Instance steps_over = testkit::circulant_exchange(800'000, 2'000, 1000, 1.0);
  ASSERT_GT(800'000 * largest_degree(steps_over), kMaxStepsMessagesTimesDegree);
  EXPECT_EQ(refusal([&] { plan(steps_over, "steps"); }),
            fmt::format("steps: 800000 messages, up to 2000 of one node, more than the {} "
                        "messages x messages of one node this algorithm plans (each step reads "
                        "the waiting messages, and there are at least as many steps as messages "
                        "of one node); use auto or whole",
                        kMaxStepsMessagesTimesDegree));
  // Within the limit they plan (at a small size here: at the limit they take seconds).
  const Instance in = testkit::circulant_exchange(600, 8, 1000, 1.0);
  expect_valid(in, plan_ggp(in));
  expect_valid(in, plan_oggp(in));
  expect_valid(in, plan_steps(in));
}

TEST(Kpbs, PlannerDispatchesTheStepAlgorithms) {
  for (const char* name : {"ggp", "oggp", "steps"}) {
    const Plan p = plan(fork(), name);
    EXPECT_EQ(p.algorithm, name);
    EXPECT_TRUE(p.steps);
  }
  EXPECT_FALSE(plan(fork(), "whole").steps);
}

}  // namespace
}  // namespace redist::exchange
