#include "redist/exchange/preemptive.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <limits>
#include <random>

#include "redist/common/error.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

using testkit::uniform_exchange;

TEST(Preemptive, ThreeCycleNeedsPreemptionAndReachesTheBound) {
  // 0 -> 1, 1 -> 2, 2 -> 0 and 0 -> 2: node 0 sends 2, node 2 receives 2.
  const Instance in = uniform_exchange(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 2, 1}});
  const Plan p = plan_preemptive(in);
  EXPECT_DOUBLE_EQ(p.lower_bound.value(), 2.0);
  EXPECT_NEAR(p.makespan, 2.0, 1e-12);
  EXPECT_TRUE(p.optimal);
  EXPECT_EQ(p.proof, Proof::lower_bound);
  const CheckResult r = check(in, p);
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(Preemptive, NoMessageIsAnEmptyOptimalPlan) {
  const Plan p = plan_preemptive(uniform_exchange(2, {}));
  EXPECT_TRUE(p.pieces.empty());
  EXPECT_EQ(p.makespan, 0.0);
  EXPECT_TRUE(p.optimal);
}

TEST(Preemptive, RefusesABackbone) {
  Instance in = uniform_exchange(2, {{0, 1, 5}});
  in.backbone = Backbone{{std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}}, 1};
  EXPECT_THROW(plan_preemptive(in), OptionError);
}

TEST(Preemptive, RefusesBeyondItsLimitOfMessagesTimesNodesBeforeAnyWork) {
  // 22,400 messages i -> i + 1 on 22,402 nodes, 22,401 of them active: 5.018e8 messages x nodes.
  const Instance over = testkit::circulant_exchange(22'400, 1);
  ASSERT_GT(over.messages.size() * over.nodes, kMaxPreemptiveMessagesTimesNodes);
  EXPECT_FALSE(preemptive_plans(over));
  const std::clock_t started = std::clock();
  try {
    plan_preemptive(over);
    ADD_FAILURE() << "not refused";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.path(), "algorithm");
    EXPECT_EQ(e.message(),
              fmt::format("preemptive: 22400 messages between 22401 nodes, more than the {} "
                          "messages x nodes this algorithm plans (for each used-up edge an "
                          "augmenting path over up to every node); use auto or whole",
                          kMaxPreemptiveMessagesTimesNodes));
  }
  EXPECT_LT(static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC, 0.05);
  // Nodes without a message do not count; within the limit it plans (a small instance: at the
  // limit it takes seconds).
  Instance idle = testkit::circulant_exchange(2'000, 8);
  idle.nodes = 100'000;
  idle.send_bandwidth.assign(idle.nodes, 1.0);
  idle.recv_bandwidth.assign(idle.nodes, 1.0);
  EXPECT_EQ(active_nodes(idle), 258u);  // 0..249 send, 1..257 receive
  EXPECT_TRUE(preemptive_plans(idle));
  EXPECT_TRUE(plan_preemptive(idle).optimal);
}

// The property that makes preemptive what it is: without latency it meets the ports bound, and
// every plan passes the independent validator.
TEST(Preemptive, MeetsTheBoundOnRandomInstancesWithoutLatency) {
  std::mt19937_64 rng(23);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < 3000; ++trial) {
    o.nodes_max = trial < 2000 ? 8 : 40;
    o.partners = 1 + static_cast<std::size_t>(trial % 6);
    o.bytes_max = trial % 3 == 0 ? 1'000'000'000 : 100;
    o.bandwidth_spread = trial % 4 == 0 ? 1.0 : 8.0;
    const Instance in = testkit::random_exchange(rng, o);
    const Plan p = plan_preemptive(in);
    ASSERT_TRUE(p.optimal) << "trial " << trial << ": " << p.makespan << " vs "
                           << p.lower_bound.value();
    ASSERT_NEAR(p.makespan, bounds(in).ports, 1e-9 * p.makespan);
    const CheckResult r = check(in, p);
    ASSERT_TRUE(r.valid) << "trial " << trial << ": " << r.reason;
  }
}

TEST(Preemptive, ValidWithLatencyAndChargesItPerMatching) {
  std::mt19937_64 rng(29);
  testkit::RandomExchangeOptions o;
  o.latency = 0.5;
  for (int trial = 0; trial < 1000; ++trial) {
    const Instance in = testkit::random_exchange(rng, o);
    const Plan p = plan_preemptive(in);
    ASSERT_GE(p.makespan, p.lower_bound.value() * (1 - 1e-12));
    const CheckResult r = check(in, p);
    ASSERT_TRUE(r.valid) << "trial " << trial << ": " << r.reason;
  }
}

TEST(Preemptive, ExtremeBandwidthsAndTinyMessagesNextToHugeOnes) {
  Instance in =
      uniform_exchange(4, {{0, 1, 1}, {0, 2, std::int64_t{1} << 52}, {3, 1, 7}, {2, 3, 1000}});
  in.send_bandwidth = {1e-200, 1e300, 1.0, 3.0};
  in.recv_bandwidth = {1.0, 1e-3, 1e12, 5.0};
  const Plan p = plan_preemptive(in);
  EXPECT_TRUE(p.optimal);
  const CheckResult r = check(in, p);
  EXPECT_TRUE(r.valid) << r.reason;
}

// The shortest plan of whole messages, by inserting them in every order, each at its earliest
// start where both its ports are free (every semi-active schedule arises so); unit bandwidths.
double best_whole_message_plan(const Instance& in) {
  std::vector<std::size_t> order(in.messages.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  double best = std::numeric_limits<double>::infinity();
  do {
    std::vector<std::vector<std::pair<double, double>>> sends(in.nodes), receives(in.nodes);
    double makespan = 0;
    for (const std::size_t k : order) {
      const Message& m = in.messages[k];
      auto& s = sends[static_cast<std::size_t>(m.from)];
      auto& r = receives[static_cast<std::size_t>(m.to)];
      const auto d = static_cast<double>(m.bytes);
      const auto free_at = [&](double t) {
        for (const auto* busy : {&s, &r}) {
          for (const auto& [a, b] : *busy) {
            if (t < b && a < t + d) return false;
          }
        }
        return true;
      };
      double start = 0;
      if (!free_at(0)) {
        start = std::numeric_limits<double>::infinity();
        for (const auto* busy : {&s, &r}) {
          for (const auto& [a, b] : *busy) {
            if (free_at(b)) start = std::min(start, b);
          }
        }
      }
      s.push_back({start, start + d});
      r.push_back({start, start + d});
      makespan = std::max(makespan, start + d);
    }
    best = std::min(best, makespan);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(Preemptive, CuttingAMessageBeatsEveryPlanOfWholeMessages) {
  // Node 0 receives 6 seconds of data: preemptive ends at 6, no plan of whole messages before 7.
  const Instance in =
      uniform_exchange(4, {{3, 0, 2}, {2, 3, 3}, {3, 1, 3}, {2, 0, 2}, {1, 0, 2}, {1, 2, 3}});
  const Plan p = plan_preemptive(in);
  EXPECT_DOUBLE_EQ(p.makespan, 6.0);
  EXPECT_GT(p.pieces.size(), in.messages.size());
  EXPECT_TRUE(check(in, p).valid);
  EXPECT_DOUBLE_EQ(best_whole_message_plan(in), 7.0);
}

}  // namespace
}  // namespace redist::exchange
