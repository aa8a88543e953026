#include "redist/exchange/busiest_first.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "redist/exchange/bounds.hpp"
#include "redist/exchange/ordered_execution.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using Span = std::pair<double, double>;

// Whether the spans cover [0, until) (up to a relative 1e-9 of `until`).
bool covers(std::vector<Span> spans, double until) {
  std::sort(spans.begin(), spans.end());
  double reached = 0.0;
  for (const Span& s : spans) {
    if (s.first > reached + 1e-9 * until) break;
    reached = std::max(reached, s.second);
  }
  return reached >= until * (1 - 1e-9);
}

// The instants where every transfer of the backbone is taken, as spans (a sweep over the crossing
// pieces' starts and ends).
std::vector<Span> saturated(const Instance& in, const Plan& plan) {
  if (!in.backbone) return {};
  const std::vector<std::uint8_t> cluster = cluster_of(in);
  std::vector<std::pair<double, int>> events;
  for (const Piece& p : plan.pieces) {
    if (!crosses(cluster, p.from, p.to)) continue;
    events.emplace_back(p.start, +1);
    events.emplace_back(p.start + in.duration({p.from, p.to, static_cast<std::int64_t>(p.bytes)}),
                        -1);
  }
  std::sort(events.begin(), events.end());  // ends (-1) before starts at one instant
  std::vector<Span> spans;
  std::int64_t running = 0;
  for (std::size_t e = 0; e < events.size(); ++e) {
    running += events[e].second;
    if (running >= in.backbone->transfers && e + 1 < events.size()) {
      spans.emplace_back(events[e].first, events[e + 1].first);
    }
  }
  return spans;
}

// Dense: before its start, every message found one of its ports busy or the backbone saturated.
void expect_dense(const Instance& in, const Plan& plan, int trial) {
  const std::vector<Span> full = saturated(in, plan);
  const std::vector<std::uint8_t> cluster = cluster_of(in);
  for (const Piece& p : plan.pieces) {
    const bool crossing = crosses(cluster, p.from, p.to);
    std::vector<Span> waited = crossing ? full : std::vector<Span>{};
    for (const Piece& q : plan.pieces) {
      if (&q == &p || (q.from != p.from && q.to != p.to)) continue;
      waited.emplace_back(
          q.start, q.start + in.duration({q.from, q.to, static_cast<std::int64_t>(q.bytes)}));
    }
    ASSERT_TRUE(covers(waited, p.start))
        << "trial " << trial << ": the message " << p.from << " -> " << p.to
        << " waited with both ports free before " << p.start;
  }
}

TEST(BusiestFirst, OnePiecePerMessageDenseValidAndWithinItsGuarantee) {
  std::mt19937_64 rng(47);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < testkit::random_cases(3000); ++trial) {
    o.latency = trial % 2 == 0 ? 0.0 : 3.0;
    o.backbone = trial % 3 == 0;
    o.nodes_max = trial % 3 == 2 ? 40 : 8;
    o.partners = 1 + static_cast<std::size_t>(trial % 5);
    o.bandwidth_spread = trial % 4 == 0 ? 1.0 : 4.0;
    const Instance in = testkit::random_exchange(rng, o);
    const Plan p = plan_busiest_first(in);
    ASSERT_EQ(p.pieces.size(), in.messages.size());
    const CheckResult r = check(in, p);
    ASSERT_TRUE(r.valid) << "trial " << trial << ": " << r.reason;
    const Bounds b = bounds(in);
    ASSERT_LE(p.makespan, (2 * b.ports + b.backbone.value_or(0.0)) * (1 + 1e-12))
        << "trial " << trial;
    ASSERT_GE(p.makespan, b.lower_bound * (1 - 1e-12)) << "trial " << trial;
    ASSERT_EQ(p.optimal, p.makespan <= b.lower_bound * (1 + 1e-9)) << "trial " << trial;
    expect_dense(in, p, trial);
  }
}

TEST(BusiestFirst, EdgeCases) {
  // Two nodes exchanging: both ports of each node carry one message, at the bound.
  const Plan two = plan_busiest_first(testkit::uniform_exchange(2, {{0, 1, 5}, {1, 0, 3}}));
  EXPECT_DOUBLE_EQ(two.makespan, 5.0);
  EXPECT_TRUE(two.optimal);
  // No message: an empty plan.
  const Plan none = plan_busiest_first(testkit::uniform_exchange(3, {}));
  EXPECT_TRUE(none.pieces.empty());
  EXPECT_DOUBLE_EQ(none.makespan, 0.0);
  // One heavy sender: its port is the bottleneck and is kept busy.
  const Plan star = plan_busiest_first(
      testkit::uniform_exchange(7, {{0, 1, 4}, {0, 2, 3}, {0, 3, 2}, {0, 4, 1}, {5, 6, 9}}));
  EXPECT_DOUBLE_EQ(star.makespan, 10.0);
  // Counts near 2^53 keep exact bytes.
  const std::int64_t huge = std::int64_t{1} << 52;
  const Plan big = plan_busiest_first(testkit::uniform_exchange(3, {{0, 1, huge}, {1, 2, huge}}));
  EXPECT_TRUE(check(testkit::uniform_exchange(3, {{0, 1, huge}, {1, 2, huge}}), big).valid);
}

// CYCLIC(1) on 32 nodes to CYCLIC(3) on 32, across two clusters of 16 joined by 8 transfers: the
// backbone is the bottleneck (a third more than any port). Longest first starts every crossing
// message it can and then leaves the backbone idle; serving the busiest resources first keeps it
// busy and ends within 0.01% of the bound (the messages differ by a few bytes).
TEST(BusiestFirst, KeepsABottleneckBackboneBusyWhereLongestFirstDoesNot) {
  const Instance in = testkit::two_cluster_block_cyclic(32);
  const Bounds b = bounds(in);
  ASSERT_GT(b.backbone.value_or(0.0), b.ports * 1.3);
  const Plan busiest = plan_busiest_first(in);
  EXPECT_TRUE(check(in, busiest).valid);
  EXPECT_LE(busiest.makespan, b.lower_bound * 1.0001);
  EXPECT_GT(plan_whole(in).makespan, b.lower_bound * 1.2);
}

// `auto` ranks its backbone candidates by the executor's run (ordered_execution.hpp), so its
// plan's run is never slower than busiest-first's.
TEST(BusiestFirst, AutoUnderABackboneIsNeverWorse) {
  std::mt19937_64 rng(53);
  int better_than_whole = 0;
  for (int trial = 0; trial < testkit::random_cases(300); ++trial) {
    testkit::RandomExchangeOptions o;
    o.nodes_min = 4;
    o.nodes_max = 24;
    o.partners = 1 + static_cast<std::size_t>(trial % 7);
    o.latency = trial % 4 == 0 ? 2.0 : 0.0;
    o.backbone = true;
    const Instance in = testkit::random_exchange(rng, o);
    if (!in.backbone) continue;
    const Plan busiest = plan_busiest_first(in);
    const Plan a = plan(in);
    EXPECT_TRUE(check(in, a).valid) << "trial " << trial;
    EXPECT_LE(ordered_execution_makespan(in, a),
              ordered_execution_makespan(in, busiest) * (1 + 1e-9))
        << "trial " << trial;
    better_than_whole += busiest.makespan < plan_whole(in).makespan * (1 - 1e-9);
  }
  EXPECT_GT(better_than_whole, 0);
}

}  // namespace
}  // namespace redist::exchange
