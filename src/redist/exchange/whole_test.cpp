#include "redist/exchange/whole.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/exchange/bounds.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

TEST(Whole, OnePiecePerMessageValidAndWithinItsGuarantee) {
  std::mt19937_64 rng(31);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < 3000; ++trial) {
    o.latency = trial % 2 == 0 ? 0.0 : 3.0;
    o.backbone = trial % 3 == 0;
    o.nodes_max = trial < 2000 ? 8 : 40;
    o.partners = 1 + static_cast<std::size_t>(trial % 5);
    const Instance in = testkit::random_exchange(rng, o);
    const Plan p = plan_whole(in);
    ASSERT_EQ(p.pieces.size(), in.messages.size());
    const CheckResult r = check(in, p);
    ASSERT_TRUE(r.valid) << "trial " << trial << ": " << r.reason;
    const Bounds b = bounds(in);
    ASSERT_LE(p.makespan, (o.backbone ? 3.0 : 2.0) * b.lower_bound * (1 + 1e-12))
        << "trial " << trial;
  }
}

TEST(Whole, AStarIsOptimal) {
  // Node 0 sends to every other node: its send port is the bottleneck, and whole keeps it busy.
  Instance in;
  in.nodes = 5;
  in.messages = {{0, 1, 4}, {0, 2, 3}, {0, 3, 2}, {0, 4, 1}};
  in.send_bandwidth.assign(5, 1.0);
  in.recv_bandwidth.assign(5, 1.0);
  const Plan p = plan_whole(in);
  EXPECT_DOUBLE_EQ(p.makespan, 10.0);
  EXPECT_TRUE(p.optimal);
}

}  // namespace
}  // namespace redist::exchange
