// The step simulator against the paper's worked examples and against the closed forms.
#include "redist/lau/simulate.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/lau/closed_forms.hpp"
#include "redist/testing/random_lau.hpp"

namespace redist::lau {
namespace {

using V = std::vector<std::int64_t>;

void expect_times(const Instance& in, const V& flows, Time ts, Time tm) {
  ASSERT_FALSE(unbalanced_node(in, flows));
  EXPECT_EQ(simulate_single(in, flows), ts);
  EXPECT_EQ(t_single_closed(in, flows), ts);
  EXPECT_EQ(simulate_multi(in, flows), tm);
  EXPECT_EQ(t_multi_closed(in, flows), tm);
}

TEST(LauSimulate, Figure1) {
  // One red node (v_6): T_s = 2. Multi-send: v_6 holds 0 and owes 1: also 2 steps.
  expect_times(balanced_instance({7, 0, 3, 1, 1, 0}), {2, 0, 1, 0, -1, -3}, 2, 2);
}

TEST(LauSimulate, Figure2And4) {
  // Chain v_2..v_5: T_s = 5; the multi-send trace of Figure 4 takes 3 steps.
  expect_times(balanced_instance({7, 0, 3, 1, 1, 0}), {5, 3, 4, 3, 2, 0}, 5, 3);
}

TEST(LauSimulate, Figure3) {
  const Instance in = balanced_instance({9, 1, 3, 0, 2, 1, 0, 0});
  // (a) two red nodes in one chain: T_s = 3; (b) three red nodes, chains of 1: T_s = 2.
  EXPECT_EQ(simulate_single(in, {2, 1, 2, 0, 0, -1, -3, -5}), 3);
  EXPECT_EQ(simulate_single(in, {3, 2, 3, 1, 1, 0, -2, -4}), 2);
  EXPECT_EQ(t_single_closed(in, {2, 1, 2, 0, 0, -1, -3, -5}), 3);
  EXPECT_EQ(t_single_closed(in, {3, 2, 3, 1, 1, 0, -2, -4}), 2);
}

TEST(LauSimulate, UnreasonableScheduleOfLemma2) {
  // Balanced loads, every node sends 10 to its right: single-send deadlocks, multi-send takes 10.
  const Instance in = balanced_instance({1, 1, 1, 1, 1, 1, 1});
  expect_times(in, V(7, 10), std::nullopt, 10);
}

TEST(LauSimulate, Lemma6WithTheCorrectedSingleSendTime) {
  const Instance in = balanced_instance({10, 1, 3, 1, 2, 2, 0, 0, 0, 1});
  // T_s-optimal schedule: T_s = 3, T_m = 3.
  expect_times(in, {3, 2, 3, 2, 2, 2, 0, -2, -4, -5}, 3, 3);
  // T_m-optimal schedule: T_m = 2; its chain v_2..v_7 has 6 red nodes, so T_s = 7 (the paper
  // prints 9).
  expect_times(in, {4, 3, 4, 3, 3, 3, 1, -1, -3, -4}, 7, 2);
}

TEST(LauSimulate, TrafficExampleOfSection4) {
  const Instance in = balanced_instance({5, 1, 1, 3, 3, 1, 0, 1, 2, 3});
  expect_times(in, {3, 2, 1, 2, 3, 2, 0, -1, -1, 0}, 2, 2);     // Linear
  expect_times(in, {1, 0, -1, 0, 1, 0, -2, -3, -3, -2}, 3, 2);  // Traffic
  expect_times(in, {2, 1, 0, 1, 2, 1, -1, -2, -2, -1}, 1, 1);   // the best
}

TEST(LauSimulate, NothingToMove) {
  expect_times(balanced_instance({3, 3, 3}), {0, 0, 0}, 0, 0);
  // All loads 0 and a cycle of flows: deadlock in both modes.
  expect_times(balanced_instance({0, 0, 0}), {1, 1, 1}, std::nullopt, std::nullopt);
}

TEST(LauSimulate, MultiSendBudget) {
  const Instance in = balanced_instance({1, 1, 1, 1, 1, 1, 1});
  EXPECT_THROW(simulate_multi(in, V(7, 10), 5), TooManySteps);
}

// Property: on >= 10,000 random instances (n 2..60, loads 0..200, balanced and random targets)
// and random shifts (also outside [min, max] of the Linear flows, including deadlocks), the
// simulator and the closed forms agree in both modes, and single >= multi (LAU Proposition 3).
TEST(LauSimulate, AgreesWithClosedFormsOnRandomInstances) {
  std::mt19937_64 rng(20240404);
  int deadlocks = 0, compared = 0;
  for (int k = 0; k < 12000; ++k) {
    testkit::RandomLauOptions o;
    o.random_targets = k % 2 == 1;
    o.load_max = k % 7 == 0 ? 3 : 200;  // small loads: long chains and threads
    const Instance in = testkit::random_lau(rng, o);
    const V linear = linear_flows(in);
    const auto [lo, hi] = std::minmax_element(linear.begin(), linear.end());
    std::uniform_int_distribution<std::int64_t> pick(*lo - 5, *hi + 5);
    for (int r = 0; r < 3; ++r) {
      const V flows = shifted(linear, pick(rng));
      const Time ss = simulate_single(in, flows), sm = simulate_multi(in, flows);
      ASSERT_EQ(ss, t_single_closed(in, flows)) << k;
      ASSERT_EQ(sm, t_multi_closed(in, flows)) << k;
      if (ss) {
        ASSERT_TRUE(sm);
        ASSERT_GE(*ss, *sm);
      }
      deadlocks += !ss;
      ++compared;
    }
  }
  EXPECT_GT(deadlocks, 0);  // the property also covered deadlocks
  EXPECT_EQ(compared, 36000);
}

}  // namespace
}  // namespace redist::lau

namespace redist::lau {
namespace {

// The traces list what the simulations send: each link's load in one message (single-send) or in
// several (multi-send, LAU Figure 4), with the same times.
TEST(LauTrace, ListsTheMessagesOfBothModes) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});
  const std::vector<std::int64_t> flows = {5, 3, 4, 3, 2, 0};
  for (const Trace& trace : {trace_single(in, flows), trace_multi(in, flows)}) {
    std::vector<std::int64_t> carried(flows.size(), 0);
    std::int64_t last_step = -1;
    for (const Message& m : trace.messages) {
      EXPECT_EQ(m.sender, m.link);  // every flow is rightwards
      EXPECT_EQ(m.receiver, (m.link + 1) % flows.size());
      EXPECT_GE(m.step, last_step);
      last_step = m.step;
      carried[m.link] += m.amount;
    }
    EXPECT_EQ(carried, flows);
    EXPECT_EQ(trace.time, last_step + 1);
  }
  EXPECT_EQ(trace_single(in, flows).messages.size(), 5u);
  EXPECT_EQ(trace_single(in, flows).time, simulate_single(in, flows));
  EXPECT_EQ(trace_multi(in, flows).time, simulate_multi(in, flows));
  EXPECT_GT(trace_multi(in, flows).messages.size(), 5u);
}

TEST(LauTrace, Deadlock) {
  const Trace trace = trace_single(balanced_instance({1, 1, 1}), {2, 2, 2});
  EXPECT_FALSE(trace.time);
  EXPECT_TRUE(trace.messages.empty());
}

}  // namespace
}  // namespace redist::lau
