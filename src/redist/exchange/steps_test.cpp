#include "redist/exchange/steps.hpp"

#include <gtest/gtest.h>

#include "redist/exchange/validate.hpp"

namespace redist::exchange {
namespace {

Instance three_nodes() {
  Instance in;
  in.nodes = 3;
  in.messages = {{0, 1, 4}, {1, 2, 2}, {2, 0, 6}};
  in.send_bandwidth = {1, 1, 2};
  in.recv_bandwidth = {1, 1, 1};
  in.latency = 0.5;
  return in;
}

TEST(LayOutSteps, StepsRunEndToEndEachAsLongAsItsLongestPiece) {
  const Instance in = three_nodes();
  // Step 1: 0->1 (4 s) and 2->0 half (3 bytes at rate 1: 3 s); step 2: 1->2 and the other half.
  Plan plan = lay_out_steps(in, {{{0, 4}, {2, 3}}, {}, {{1, 2}, {2, 3}}});
  ASSERT_EQ(plan.pieces.size(), 4u);
  EXPECT_DOUBLE_EQ(plan.pieces[0].start, 0.0);
  EXPECT_DOUBLE_EQ(plan.pieces[2].start, 4.5);  // after latency + 4 s; the empty step is free
  EXPECT_DOUBLE_EQ(plan.makespan, 4.5 + 3.5);
  plan.lower_bound = 0.0;
  EXPECT_TRUE(check(in, plan).valid) << check(in, plan).reason;
}

}  // namespace
}  // namespace redist::exchange
