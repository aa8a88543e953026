#include "redist/mpi/local_plan.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>

#include "redist/common/error.hpp"

namespace redist::mpi {
namespace {

ring::Instance random_instance(std::mt19937_64& rng, int n, bool bidirectional) {
  ring::Instance in;
  in.bidirectional = bidirectional;
  std::uniform_int_distribution<std::int64_t> count(0, 30);
  std::uniform_real_distribution<double> cost(0.5, 3.0);
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    in.loads.push_back(rng() % 3 == 0 ? 0 : count(rng));
    total += in.loads.back();
    in.cost_next.push_back(cost(rng));
    if (bidirectional) in.cost_prev.push_back(cost(rng));
  }
  in.targets.assign(n, 0);
  for (std::int64_t k = 0; k < total; ++k) in.targets[rng() % n] += 1;
  return in;
}

// Link r -> succ: what r sends as item k is what succ receives as item k, both ends splitting the
// link into the same two sub-streams (items the receiver forwards, then items it keeps).
void check_link(const LocalPlan& p, const LocalPlan& succ, std::int64_t total) {
  ASSERT_EQ(p.right.out, succ.right.in);
  ASSERT_EQ(succ.left.out, p.left.in);
  EXPECT_EQ(p.right.out_fwd, succ.right.fwd);
  EXPECT_EQ(succ.left.out_fwd, p.left.fwd);
  EXPECT_LE(p.right.out_fwd, p.right.out);
  for (std::int64_t k = 0; k < p.right.out; ++k) {
    EXPECT_EQ(wrap(p.global_out(Side::right, k), total),
              wrap(succ.global_in(Side::right, k), total));
  }
  for (std::int64_t k = 0; k < succ.left.out; ++k) {
    EXPECT_EQ(wrap(succ.global_out(Side::left, k), total), wrap(p.global_in(Side::left, k), total));
  }
}

// One rank's streams: what leaves (own items from the end facing the link, then forwarded ones in
// arrival order) and where kept items land; counts every item that lands in `final_count`.
void check_rank(const LocalPlan& p, std::int64_t total, std::map<std::int64_t, int>& final_count) {
  for (Side side : {Side::right, Side::left}) {
    const Stream& s = p.stream(side);
    for (std::int64_t k = 0; k < s.out; ++k) {
      if (k < s.own_out) {
        EXPECT_EQ(p.global_out(side, k), p.start + p.own_offset(side, k));
      } else {
        EXPECT_EQ(p.global_out(side, k), p.global_in(side, k - s.own_out));
      }
    }
    for (std::int64_t k = s.fwd; k < s.in; ++k) {
      const std::int64_t off = p.placed_offset(side, k);
      ASSERT_GE(off, 0);
      ASSERT_LT(off, p.target);
      EXPECT_EQ(wrap(p.final_start + off, total), wrap(p.global_in(side, k), total));
      final_count[wrap(p.global_in(side, k), total)]++;
    }
  }
  for (std::int64_t j = 0; j < p.kept; ++j) {
    EXPECT_EQ(p.start + p.kept_from + j, p.final_start + p.kept_to + j);
    final_count[wrap(p.start + p.kept_from + j, total)]++;
  }
}

// Destination groups of rank r's stream on `side`: every item of a group ends on the rank `hops`
// links away, and the groups partition the stream, farthest first.
void check_groups(const ring::Instance& in, const FlowPlan& plan, const std::vector<LocalPlan>& lp,
                  std::int64_t r, Side side) {
  const std::int64_t n = static_cast<std::int64_t>(in.size()), total = lp[0].total;
  auto owner = [&](std::int64_t g) {
    for (std::int64_t q = 0; q < n; ++q) {
      if (wrap(g - lp[q].final_start, total) < lp[q].target) return q;
    }
    return std::int64_t{-1};
  };
  const std::vector<Group> groups = outgoing_groups(in, plan.flows, r, side);
  std::int64_t pos = 0, prev_hops = n;
  for (const Group& g : groups) {
    EXPECT_EQ(g.first, pos);
    EXPECT_LT(g.first, g.last);
    EXPECT_LT(g.hops, prev_hops);
    pos = g.last;
    prev_hops = g.hops;
    const std::int64_t dest =
        side == Side::right ? (r + g.hops) % n : (r + n * g.hops - g.hops) % n;
    for (std::int64_t p = g.first; p < g.last; ++p) {
      EXPECT_EQ(owner(wrap(lp[r].global_out(side, p), total)), dest) << "rank " << r << " p " << p;
    }
  }
  EXPECT_EQ(pos, lp[r].stream(side).out);
  // The neighbour keeps the last group when it keeps anything (hops 1).
  const std::int64_t kept_first =
      !groups.empty() && groups.back().hops == 1 ? groups.back().first : pos;
  EXPECT_EQ(kept_first, lp[r].stream(side).out_fwd);
}

// Follows every item through the per-rank mappings and checks that each lands once, in order.
void check_consistent(const ring::Instance& in, const FlowPlan& plan) {
  const std::int64_t n = static_cast<std::int64_t>(in.size());
  std::vector<LocalPlan> lp;
  for (std::int64_t r = 0; r < n; ++r) lp.push_back(make_local_plan(in, plan.flows, r));
  const std::int64_t total = lp[0].total;
  std::map<std::int64_t, int> final_count;
  for (std::int64_t r = 0; r < n; ++r) {
    EXPECT_EQ(lp[r].final_start, lp[r].start - plan.flows[(r + n - 1) % n]);
    check_link(lp[r], lp[(r + 1) % n], total);
    check_rank(lp[r], total, final_count);
    for (Side side : {Side::right, Side::left}) check_groups(in, plan, lp, r, side);
  }
  ASSERT_EQ(static_cast<std::int64_t>(final_count.size()), total);
  for (const auto& [g, c] : final_count) EXPECT_EQ(c, 1) << "item " << g;
}

TEST(PlanFlows, LinearHasNoWrapFlowAndKeepsTheOrder) {
  ring::Instance in{true, {5, 0, 3, 0}, {0, 4, 0, 4}, {1, 2, 1, 1}, {1, 1, 3, 1}};
  FlowPlan plan = plan_flows(in, Mode::linear);
  EXPECT_EQ(plan.flows, (std::vector<std::int64_t>{5, 1, 4, 0}));
  EXPECT_EQ(plan.rotation, 0);
  EXPECT_GT(plan.makespan, 0.0);
  check_consistent(in, plan);
}

TEST(PlanFlows, RingMayRotateAndReportsIt) {
  // Everything on rank 3 must go to rank 0: one hop over the wrap-around link.
  ring::Instance in{false, {0, 0, 0, 6}, {6, 0, 0, 0}, {1, 1, 1, 1}, {}};
  FlowPlan plan = plan_flows(in, Mode::ring);
  EXPECT_EQ(plan.flows, (std::vector<std::int64_t>{0, 0, 0, 6}));
  EXPECT_EQ(plan.rotation, 6);
  EXPECT_DOUBLE_EQ(plan.makespan, 6.0);
  LocalPlan p0 = make_local_plan(in, plan.flows, 0);
  EXPECT_EQ(p0.final_start, -6);  // items 0..5 (global N-6 .. N-1 unrolled)
  check_consistent(in, plan);
}

TEST(PlanFlows, LinearUnidirectionalNeedsNonNegativePrefixes) {
  ring::Instance in{false, {3, 2, 4, 1}, {0, 0, 10, 0}, {1, 1, 1, 1}, {}};
  EXPECT_THROW(plan_flows(in, Mode::linear), InputError);
  ring::Instance ok{false, {3, 2, 4, 1}, {0, 0, 0, 10}, {1, 1, 1, 1}, {}};
  EXPECT_EQ(plan_flows(ok, Mode::linear).flows, (std::vector<std::int64_t>{3, 5, 9, 0}));
}

TEST(LocalPlan, ForwarderSendsOwnItemsFirstThenArrivalsInOrder) {
  // Rank 1 holds 2 items and forwards 3 of rank 0's to rank 2.
  ring::Instance in{false, {4, 2, 0}, {1, 0, 5}, {1, 1, 1}, {}};
  const std::vector<std::int64_t> flows{3, 5, 0};
  LocalPlan p = make_local_plan(in, flows, 1);
  EXPECT_EQ(p.right.in, 3);
  EXPECT_EQ(p.right.out, 5);
  EXPECT_EQ(p.right.own_out, 2);
  EXPECT_EQ(p.right.fwd, 3);
  EXPECT_EQ(p.right.placed, 0);
  // Items leave last first: 5, 4 (own), then 3, 2, 1 (received from rank 0 in that order).
  std::vector<std::int64_t> sent;
  for (std::int64_t k = 0; k < p.right.out; ++k) sent.push_back(p.global_out(Side::right, k));
  EXPECT_EQ(sent, (std::vector<std::int64_t>{5, 4, 3, 2, 1}));
  check_consistent(in, FlowPlan{flows, 0, "given", 0, {}});
}

TEST(LocalPlan, SourceSendsBothWaysFromBothEnds) {
  ring::Instance in{true, {0, 6, 0}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}};
  const std::vector<std::int64_t> flows{-2, 2, 0};
  LocalPlan p = make_local_plan(in, flows, 1);
  EXPECT_EQ(p.left.own_out, 2);
  EXPECT_EQ(p.right.own_out, 2);
  EXPECT_EQ(p.kept, 2);
  EXPECT_EQ(p.kept_from, 2);
  EXPECT_EQ(p.kept_to, 0);
  EXPECT_EQ(p.global_out(Side::left, 0), 0);   // first item first
  EXPECT_EQ(p.global_out(Side::right, 0), 5);  // last item first
  check_consistent(in, FlowPlan{flows, 0, "given", 0, {}});
}

TEST(DepartureTimes, FollowTheScheduleRunsOfOneRankAndDirection) {
  ring::Instance in{true, {0, 7, 0}, {2, 3, 2}, {1, 2, 1}, {1, 1, 3}};
  // Rank 1: 2 items to succ (cost 2) from t = 1, period 3; 1 item to pred (cost 1) at t = 0 and
  // one more at t = 4 (two runs, given out of order).
  std::vector<ring::Run> runs{{1, ring::Direction::next, 1.0, 2, 3.0},
                              {1, ring::Direction::prev, 4.0, 1, 0.0},
                              {1, ring::Direction::prev, 0.0, 1, 0.0},
                              {0, ring::Direction::next, 0.0, 5, 0.0}};
  DepartureTimes right(in, runs, 1, ring::Direction::next),
      left(in, runs, 1, ring::Direction::prev);
  EXPECT_DOUBLE_EQ(right.at(0), 1.0);
  EXPECT_DOUBLE_EQ(right.at(1), 4.0);
  EXPECT_EQ(right.at(2), std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(left.at(0), 0.0);
  EXPECT_DOUBLE_EQ(left.at(1), 4.0);
  EXPECT_EQ(left.at(-1), std::numeric_limits<double>::infinity());
  // A unidirectional ring has no prev costs: no prev runs, no departures.
  ring::Instance uni{false, {0, 7, 0}, {2, 3, 2}, {1, 2, 1}, {}};
  const std::vector<ring::Run> next_only{runs[0], runs[3]};
  DepartureTimes none(uni, next_only, 1, ring::Direction::prev);
  EXPECT_DOUBLE_EQ(DepartureTimes(uni, next_only, 1, ring::Direction::next).at(1), 4.0);
  EXPECT_EQ(none.at(0), std::numeric_limits<double>::infinity());
}

TEST(PlanFlows, KeepsTheScheduleBehindTheFlows) {
  std::mt19937_64 rng(77);
  for (int t = 0; t < 200; ++t) {
    const ring::Instance in = random_instance(rng, 2 + static_cast<int>(rng() % 6), rng() % 2 == 0);
    for (Mode mode : {Mode::ring, Mode::linear}) {
      if (mode == Mode::linear && !in.bidirectional) continue;
      const FlowPlan plan = plan_flows(in, mode);
      EXPECT_EQ(ring::flows_of_runs(in, plan.transfers), plan.flows);
      EXPECT_DOUBLE_EQ(ring::schedule_makespan(in, plan.transfers), plan.makespan);
    }
  }
}

// The peak staging of a forwarded group equals an item-by-item sweep of the schedule.
TEST(PeakForwarded, MatchesAnItemByItemSweep) {
  std::mt19937_64 rng(91);
  int groups_seen = 0;
  for (int t = 0; t < 300; ++t) {
    const ring::Instance in = random_instance(rng, 2 + static_cast<int>(rng() % 7), rng() % 2 == 0);
    const Mode mode = in.bidirectional && rng() % 2 ? Mode::linear : Mode::ring;
    const FlowPlan plan = plan_flows(in, mode);
    const std::int64_t n = static_cast<std::int64_t>(in.size());
    for (std::int64_t r = 0; r < n; ++r) {
      const LocalPlan p = make_local_plan(in, plan.flows, r);
      for (Side side : {Side::right, Side::left}) {
        const ring::Direction dir =
            side == Side::right ? ring::Direction::next : ring::Direction::prev;
        const std::int64_t up = side == Side::right ? (r + n - 1) % n : (r + 1) % n;
        const DepartureTimes upstream(in, plan.transfers, up, dir),
            mine(in, plan.transfers, r, dir);
        for (const Group& g : outgoing_groups(in, plan.flows, up, side)) {
          const std::int64_t peak = peak_forwarded(in, plan.transfers, p, side, g);
          if (g.hops == 1) {
            EXPECT_EQ(peak, 0);
            continue;
          }
          ++groups_seen;
          // +1 at each arrival, -1 at each departure; departures first at equal times (up to
          // rounding: an item forwarded the moment it arrives is not held).
          std::vector<std::pair<double, int>> events;
          for (std::int64_t k = g.first; k < g.last; ++k) {
            events.push_back({upstream.at(k) + in.cost(static_cast<std::size_t>(up), dir), +1});
            const double d = mine.at(p.stream(side).own_out + k);
            events.push_back({d - 1e-9 * std::max(1.0, d), -1});
          }
          std::sort(events.begin(), events.end());
          std::int64_t held = 0, best = 0;
          for (const auto& [time, delta] : events) {
            held += delta;
            best = std::max(best, held);
          }
          EXPECT_EQ(peak, best) << "instance " << t << " rank " << r;
        }
      }
    }
  }
  EXPECT_GT(groups_seen, 100);
}

TEST(LocalPlan, RejectsUnbalancedFlows) {
  ring::Instance in{false, {4, 2, 0}, {1, 0, 5}, {1, 1, 1}, {}};
  EXPECT_THROW(make_local_plan(in, {3, 4, 0}, 1), InputError);
}

TEST(LocalPlan, SegmentPositionsAreIncreasingInGlobalOrder) {
  ring::Instance in{true, {9, 0, 0}, {0, 5, 4}, {1, 1, 1}, {1, 1, 1}};
  FlowPlan plan{{5, 0, -4}, 0, "given", -4, {}};
  LocalPlan p = make_local_plan(in, plan.flows, 0);
  for (Side side : {Side::right, Side::left}) {
    const std::int64_t a = 0, b = p.stream(side).out;
    std::vector<std::int64_t> by_position(static_cast<std::size_t>(b - a), -1);
    for (std::int64_t k = a; k < b; ++k) {
      by_position[position_in_segment(side, a, b, k)] = p.global_out(side, k);
    }
    for (std::size_t q = 1; q < by_position.size(); ++q)
      EXPECT_EQ(by_position[q], by_position[q - 1] + 1);
  }
  check_consistent(in, plan);
}

TEST(LocalPlan, RandomInstancesAllModesAreConsistent) {
  std::mt19937_64 rng(42);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 7);
    const bool bidi = trial % 2 == 0;
    ring::Instance in = random_instance(rng, n, bidi);
    for (Mode mode : {Mode::ring, Mode::linear}) {
      FlowPlan plan;
      try {
        plan = plan_flows(in, mode);
      } catch (const InputError&) {
        ASSERT_TRUE(mode == Mode::linear && !bidi);  // only linear unidirectional may refuse
        continue;
      }
      bool all_pos = true, all_neg = true;
      for (std::int64_t f : plan.flows) {
        all_pos = all_pos && f > 0;
        all_neg = all_neg && f < 0;
      }
      EXPECT_FALSE(all_pos || all_neg) << "circulation left in the flows";
      if (mode == Mode::linear) {
        EXPECT_EQ(plan.flows.back(), 0);
      }
      EXPECT_EQ(plan.rotation, plan.flows.back());
      check_consistent(in, plan);
      ++checked;
    }
  }
  EXPECT_GT(checked, 400);
}

}  // namespace
}  // namespace redist::mpi
