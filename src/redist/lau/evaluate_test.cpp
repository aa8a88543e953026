#include "redist/lau/evaluate.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/lau/closed_forms.hpp"
#include "redist/lau/simulate.hpp"
#include "redist/testing/random_lau.hpp"

namespace redist::lau {
namespace {

// Flows of 10^18 on two nodes of load 1: the multi-send run has 10^18 steps. eval used to simulate
// 10^8 of them (2 x 10^8 node-steps, 5-60 s) before switching to the closed form; the budget now
// stops the simulation after kEvalSimulationBudget node-steps. The simulator's own budget check
// (TooManySteps) bounds the work: this test would take minutes with an unbounded simulation.
TEST(SlowPath, EvalOfHugeFlowsUsesTheClosedForm) {
  const Instance in = balanced_instance({1, 1});
  const std::int64_t f = 1'000'000'000'000'000'000;
  const Evaluation e = evaluate(in, {f, f});
  EXPECT_FALSE(e.multi_by_simulation);
  EXPECT_EQ(e.t_multi, t_multi_closed(in, {f, f}));
  EXPECT_EQ(*e.t_multi, f);             // one unit per step on each link
  EXPECT_EQ(e.t_single, std::nullopt);  // every node red: deadlock
  EXPECT_EQ(e.h, -f);
  EXPECT_THROW(simulate_multi(in, {f, f}, kEvalSimulationBudget / 2 + 1), TooManySteps);
}

// The closed form (budget 0) and the step-by-step simulation (unbounded) give the same answers on
// random small instances and random valid shifts, including flows far above the loads.
TEST(SlowPath, EvalByClosedFormEqualsStepByStepSimulation) {
  std::mt19937_64 rng(99);
  int closed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    testkit::RandomLauOptions o;
    o.n_max = 12;
    o.load_max = trial % 3 == 0 ? 3 : 40;
    o.random_targets = trial % 2 == 1;
    const Instance in = testkit::random_lau(rng, o);
    const std::int64_t h = static_cast<std::int64_t>(rng() % 201) - 100;
    const std::vector<std::int64_t> flows = shifted(linear_flows(in), h);
    const Evaluation fast = evaluate(in, flows, 0);
    const Evaluation slow = evaluate(in, flows, INT64_MAX);
    EXPECT_TRUE(slow.multi_by_simulation);
    closed += !fast.multi_by_simulation;
    EXPECT_EQ(fast.t_multi, slow.t_multi) << "trial " << trial;
    EXPECT_EQ(fast.t_single, slow.t_single);
    EXPECT_EQ(fast.t_single, t_single_closed(in, flows));
    EXPECT_EQ(fast.traffic, slow.traffic);
    EXPECT_EQ(fast.h, h);
  }
  EXPECT_GT(closed, 2000);  // most runs took the closed-form path
}

}  // namespace
}  // namespace redist::lau
