// Each rank's share of a plan (mpi/transfers.hpp): own_transfers, which an executor computes from
// the rank's pieces alone, equals the share every rank gets from the whole plan (rank_transfers
// over plan_order and cut_pieces, and all_transfers), on plans of every algorithm over random
// instances with fixed seeds; and every byte of every message is sent once and received once.
#include "redist/mpi/transfers.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>
#include <utility>

#include "redist/common/error.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::mpi {
namespace {

bool same(const std::vector<Transfer>& a, const std::vector<Transfer>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].peer != b[k].peer || a[k].offset != b[k].offset || a[k].bytes != b[k].bytes) {
      return false;
    }
  }
  return true;
}

// Sums, per (from, to), the bytes sent and received over every rank's share, and checks that
// each side tiles the message [0, bytes) in order.
std::int64_t tiling_faults(const exchange::Instance& in, const std::vector<RankTransfers>& all) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> sent, received;
  std::int64_t faults = 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto me = static_cast<std::int64_t>(r);
    for (const Transfer& t : all[r].sends) {
      std::int64_t& at = sent[{me, t.peer}];
      faults += t.offset != at || t.bytes <= 0;
      at = t.offset + t.bytes;
    }
    for (const Transfer& t : all[r].recvs) {
      std::int64_t& at = received[{t.peer, me}];
      faults += t.offset != at || t.bytes <= 0;
      at = t.offset + t.bytes;
    }
  }
  for (const exchange::Message& m : in.messages) {
    faults += sent[{m.from, m.to}] != m.bytes;
    faults += received[{m.from, m.to}] != m.bytes;
  }
  return faults;
}

TEST(OwnTransfers, EqualEveryRanksShareOfTheWholePlanForEveryAlgorithm) {
  std::mt19937_64 rng(20261128);
  std::int64_t plans = 0;
  for (int k = 0; k < 400; ++k) {
    testkit::RandomExchangeOptions o;
    o.nodes_min = 2;
    o.nodes_max = k % 5 == 0 ? 40 : 9;
    o.partners = 1 + static_cast<std::size_t>(k % 4);
    o.bytes_max = k % 7 == 0 ? 3 : 100000;  // tiny messages: pieces that round to no byte
    o.latency = k % 3 == 1 ? 1e-3 : 0.0;
    o.backbone = k % 4 == 3;
    const exchange::Instance in = testkit::random_exchange(rng, o);
    for (const exchange::AlgorithmName& algorithm : exchange::kAlgorithms) {
      if (algorithm.name == std::string_view("exact") && in.messages.size() > 5) continue;
      exchange::Plan plan;
      try {
        plan = exchange::plan(in, algorithm.name);
      } catch (const OptionError&) {
        continue;  // does not apply to this instance
      }
      ++plans;
      const std::int64_t most = k % 2 == 0 ? std::numeric_limits<std::int64_t>::max() : 1000;
      const std::vector<std::size_t> order = plan_order(plan);
      const PieceCut cut = cut_pieces(in, plan, order);
      const std::vector<RankTransfers> all = all_transfers(in, plan, in.nodes, most);
      for (std::size_t r = 0; r < in.nodes; ++r) {
        const auto rank = static_cast<std::int64_t>(r);
        const RankTransfers own = own_transfers(in, plan, rank, most);
        const RankTransfers whole = rank_transfers(plan, order, cut, rank, most);
        ASSERT_TRUE(same(own.sends, whole.sends) && same(own.recvs, whole.recvs))
            << algorithm.name << ", instance " << k << ", rank " << r;
        ASSERT_TRUE(same(own.sends, all[r].sends) && same(own.recvs, all[r].recvs))
            << algorithm.name << ", instance " << k << ", rank " << r;
      }
      ASSERT_EQ(tiling_faults(in, all), 0) << algorithm.name << ", instance " << k;
    }
  }
  EXPECT_GT(plans, 2000);
}

TEST(OwnTransfers, RefusesAPieceWithoutItsMessage) {
  const exchange::Instance in = testkit::uniform_exchange(3, {{0, 1, 10}});
  exchange::Plan plan;
  plan.pieces = {{0, 1, 0.0, 10.0}, {0, 2, 10.0, 1.0}};
  EXPECT_THROW(own_transfers(in, plan, 0, 1 << 20), std::out_of_range);
  EXPECT_EQ(own_transfers(in, plan, 1, 1 << 20).recvs.size(), 1U);  // rank 1's pieces are fine
}

}  // namespace
}  // namespace redist::mpi
