#include "redist/ring/flow_executor.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/unidirectional.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

Schedule as_schedule(const Instance& in, std::vector<ring::Run> runs) {
  Schedule s;
  s.algorithm = "flow-executor";
  s.transfers = std::move(runs);
  s.makespan = schedule_makespan(in, s.transfers);
  s.flows = flows_of_runs(in, s.transfers);
  return s;
}

TEST(FlowExecutor, RelayWithNoItemWaitsForItsInput) {
  Instance in;
  in.bidirectional = true;
  in.loads = {3, 0, 0};
  in.targets = {0, 0, 3};
  in.cost_next = {1, 2, 1};
  in.cost_prev = {1, 1, 1};
  // All three items go 0 -> 1 -> 2: P1 forwards each item when it arrives.
  const Schedule s = as_schedule(in, execute_flows_asap(in, {3, 3, 0}));
  const CheckResult v = check(in, s);
  ASSERT_TRUE(v.valid) << v.reason;
  // P0 sends at 0, 1, 2; P1 forwards at 1, 3, 5 (its link costs 2, so items queue up).
  EXPECT_DOUBLE_EQ(s.makespan, 7.0);
  EXPECT_EQ(s.flows, (std::vector<std::int64_t>{3, 3, 0}));
}

TEST(FlowExecutor, RejectsFlowsThatDoNotBalance) {
  Instance in;
  in.loads = {2, 0};
  in.targets = {1, 1};
  in.cost_next = {1, 1};
  EXPECT_THROW(execute_flows_asap(in, {2, 0}), InputError);
  EXPECT_THROW(execute_flows_asap(in, {1, -1}), InputError);  // negative on a unidirectional ring
  EXPECT_THROW(execute_flows_asap(in, {1, 0}, /*max_items=*/0), InputError);
}

// Any balancing flows give a valid schedule, also with zero loads and targets, and never one
// shorter than System 6 allows for these flows.
TEST(FlowExecutorProperty, ValidForSystem6FlowsOnRandomRings) {
  std::mt19937_64 rng(31);
  testkit::RandomRingOptions o;
  o.bidirectional = true;
  o.n_max = 40;
  o.load_min = 0;
  o.target_min = 0;
  o.load_max = 200;
  for (int trial = 0; trial < 3000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const System6Solution best = system6_integer_optimum(in);
    const Schedule s = as_schedule(in, execute_flows_asap(in, best.flows));
    const CheckResult v = check(in, s);
    ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
    ASSERT_EQ(s.flows, best.flows);
    ASSERT_GE(s.makespan, best.tau * (1 - 1e-9));
  }
}

TEST(FlowExecutorProperty, ValidOnUnidirectionalRings) {
  std::mt19937_64 rng(32);
  testkit::RandomRingOptions o;
  o.load_min = 0;
  o.target_min = 0;
  o.load_max = 100;
  for (int trial = 0; trial < 2000; ++trial) {
    const Instance in = testkit::random_ring(rng, o);
    const Schedule s = as_schedule(in, execute_flows_asap(in, unidirectional_flows(in)));
    const CheckResult v = check(in, s);
    ASSERT_TRUE(v.valid) << "trial " << trial << ": " << v.reason;
  }
}

}  // namespace
}  // namespace redist::ring
