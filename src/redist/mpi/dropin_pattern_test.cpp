// The drop-in's MPI-free part (mpi/dropin_pattern.hpp, mpi/transfers.hpp): the cache's exact
// matching and its eviction, the consistency check of a gathered matrix, the decision rules, and
// that every rank's transfers, as rank 0 sends them, deliver every byte of every message exactly
// once, on random patterns with fixed seeds.
#include "redist/mpi/dropin_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <utility>

#include "redist/exchange/planner.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::mpi::dropin {
namespace {

Row row_of(std::vector<std::int64_t> send, std::vector<std::int64_t> recv) {
  Row r{std::move(send), std::move(recv), 0};
  r.seal();
  return r;
}

TEST(DropinCache, HitsOnlyTheSlotEveryRankMatches) {
  PatternCache cache;
  std::int64_t words[kCacheEntries];
  const Row a = row_of({0, 8, 16}, {0, 4, 4}), b = row_of({0, 8, 16}, {0, 4, 5});
  cache.mismatches(a, words);
  EXPECT_EQ(PatternCache::hit(words), -1);  // empty: a miss
  const int slot = cache.insert(a, 1);
  cache.mismatches(a, words);
  EXPECT_EQ(PatternCache::hit(words), slot);
  cache.mismatches(b, words);  // one count differs: no slot matches
  EXPECT_EQ(PatternCache::hit(words), -1);
  // Another rank's words: its row differs from its row of the slot, so the maximum is 1.
  std::int64_t other[kCacheEntries];
  cache.mismatches(b, other);
  cache.mismatches(a, words);
  for (std::size_t k = 0; k < kCacheEntries; ++k) words[k] = std::max(words[k], other[k]);
  EXPECT_EQ(PatternCache::hit(words), -1);
}

TEST(DropinCache, EvictsTheLeastRecentlyUsedSlot) {
  PatternCache cache;
  std::vector<int> slots;
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(kCacheEntries); ++k) {
    slots.push_back(cache.insert(row_of({k, 1}, {1, k}), k));
  }
  std::sort(slots.begin(), slots.end());
  EXPECT_EQ(std::unique(slots.begin(), slots.end()), slots.end());  // every slot used once
  cache.at(0).last_used = 100;  // slot 0 used recently; slot 1 is now the oldest
  EXPECT_EQ(cache.insert(row_of({99, 1}, {1, 99}), 101), 1);
  std::int64_t words[kCacheEntries];
  cache.mismatches(row_of({1, 1}, {1, 1}), words);  // the row of slot 1, evicted
  EXPECT_EQ(PatternCache::hit(words), -1);
  cache.mismatches(row_of({0, 1}, {1, 0}), words);
  EXPECT_EQ(PatternCache::hit(words), 0);
}

Matrix square(std::size_t p, const std::vector<std::int64_t>& send) {
  Matrix m{p, send, std::vector<std::int64_t>(p * p)};
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) m.recv[j * p + i] = send[i * p + j];
  }
  return m;
}

exchange::Platform platform(std::size_t p, double bandwidth, double latency = 0.0) {
  exchange::Platform q;
  q.ranks = p;
  q.send_bandwidth.assign(p, bandwidth);
  q.recv_bandwidth.assign(p, bandwidth);
  q.latency = latency;
  return q;
}

TEST(DropinMatrix, MismatchNamesTheRanksAndTheOwnBlockCounts) {
  Matrix m = square(3, {4, 1, 2, 3, 0, 5, 6, 7, 8});
  EXPECT_EQ(mismatch(m), "");
  m.recv[2 * 3 + 1] = 9;  // rank 2 expects 9 bytes from rank 1, which sends 5
  EXPECT_EQ(mismatch(m), "rank 1 sends 5 bytes to rank 2, which expects 9");
  m = square(2, {3, 1, 1, 0});
  m.recv[0] = 4;  // rank 0's own block: 3 bytes sent, 4 expected
  EXPECT_NE(mismatch(m), "");
  EXPECT_EQ(matrix_hash(square(2, {0, 1, 1, 0})), matrix_hash(square(2, {0, 1, 1, 0})));
  EXPECT_NE(matrix_hash(square(2, {0, 1, 1, 0})), matrix_hash(square(2, {0, 1, 2, 0})));
}

TEST(DropinMatrix, InstanceLeavesOutTheDiagonalAndEmptyPairs) {
  const exchange::Instance in =
      matrix_instance(square(3, {9, 5, 0, 0, 9, 7, 1, 0, 9}), platform(3, 2.0));
  ASSERT_EQ(in.messages.size(), 3u);
  EXPECT_EQ(in.messages[0].from, 0);
  EXPECT_EQ(in.messages[0].to, 1);
  EXPECT_EQ(in.messages[0].bytes, 5);
  EXPECT_EQ(in.send_bandwidth, std::vector<double>(3, 2.0));
}

TEST(DropinDecision, AlwaysPlansAndAutoComparesWithTheMeasuredNativeTime) {
  const Matrix m = square(3, {0, 100, 0, 0, 0, 100, 100, 0, 0});
  const exchange::Platform q = platform(3, 100.0);  // every message takes 1 s; the bound is 1 s
  const Decision always = decide(m, q, Mode::always, std::nullopt, 0.05);
  EXPECT_EQ(always.choice, Choice::redist);
  EXPECT_DOUBLE_EQ(always.lower_bound, 1.0);
  EXPECT_DOUBLE_EQ(always.predicted_redist, 1.0);
  EXPECT_EQ(always.ranks.size(), 3u);
  // The native call took 2 s: the plan (1 s) gains 50%.
  EXPECT_EQ(decide(m, q, Mode::auto_choice, 2.0, 0.05).choice, Choice::redist);
  // It took 1.02 s: no plan can gain 5%, and none is made.
  const Decision close = decide(m, q, Mode::auto_choice, 1.02, 0.05);
  EXPECT_EQ(close.choice, Choice::native);
  EXPECT_EQ(close.algorithm, "");
  // Without messages between ranks there is nothing to plan: every rank copies its own block.
  const Decision none =
      decide(square(2, {5, 0, 0, 5}), platform(2, 1.0), Mode::always, std::nullopt, 0.05);
  EXPECT_EQ(none.choice, Choice::redist);
  EXPECT_EQ(none.algorithm, "");
  ASSERT_EQ(none.ranks.size(), 2u);
  EXPECT_TRUE(none.ranks[0].sends.empty() && none.ranks[1].recvs.empty());
}

TEST(DropinDecision, PlannerAutoButUnderABackbone) {
  exchange::Instance in = matrix_instance(square(2, {0, 1, 1, 0}), platform(2, 1.0));
  EXPECT_EQ(planner_for(in), "auto");
  in.latency = 1e-6;
  EXPECT_EQ(planner_for(in), "auto");
  in.backbone = exchange::Backbone{{std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}}, 1};
  EXPECT_EQ(planner_for(in), "whole");
}

// Every rank's transfers, as rank 0 sends them: each message's bytes arrive exactly once, the
// sender's and the receiver's lists agree piece for piece, and no transfer exceeds the cap.
void expect_transfers_deliver(const Matrix& m, const Decision& d, std::int64_t cap) {
  const std::size_t p = m.ranks;
  std::map<std::pair<int, int>, std::vector<std::pair<std::int64_t, std::int64_t>>> sent, got;
  for (std::size_t i = 0; i < p; ++i) {
    for (const Transfer& t : d.ranks[i].sends) {
      EXPECT_LE(t.bytes, cap);
      sent[{static_cast<int>(i), t.peer}].push_back({t.offset, t.bytes});
    }
    for (const Transfer& t : d.ranks[i].recvs)
      got[{t.peer, static_cast<int>(i)}].push_back({t.offset, t.bytes});
  }
  EXPECT_EQ(sent, got);
  for (auto& [pair, pieces] : sent) {
    std::sort(pieces.begin(), pieces.end());
    std::int64_t at = 0;
    for (const auto& [offset, bytes] : pieces) {
      EXPECT_EQ(offset, at);
      EXPECT_GT(bytes, 0);
      at += bytes;
    }
    EXPECT_EQ(
        at,
        m.send[static_cast<std::size_t>(pair.first) * p + static_cast<std::size_t>(pair.second)]);
  }
}

TEST(DropinDecision, RandomPatternsPlannedCheckedAndCutExactly) {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < testkit::random_cases(3000); ++trial) {
    const std::size_t p = 2 + rng() % 9;
    std::vector<std::int64_t> send(p * p, 0);
    for (auto& b : send) {
      if (rng() % 3 != 0) b = static_cast<std::int64_t>(rng() % (trial % 2 ? 100 : 5'000'000));
    }
    const Matrix m = square(p, send);
    exchange::Platform q = platform(p, 1e9, trial % 3 == 0 ? 1e-6 : 0.0);
    for (std::size_t i = 0; i < p; ++i)
      q.recv_bandwidth[i] = 1e8 * static_cast<double>(1 + rng() % 10);
    const Decision d = decide(m, q, Mode::always, std::nullopt, 0.05);
    if (matrix_instance(m, q).messages.empty()) {
      EXPECT_EQ(d.choice, Choice::redist);
      EXPECT_EQ(d.algorithm, "");
      continue;
    }
    ASSERT_EQ(d.choice, Choice::redist) << d.reason;
    EXPECT_GE(d.predicted_redist, d.lower_bound * (1 - 1e-9));
    expect_transfers_deliver(m, d, std::int64_t{1} << 30);
  }
}

TEST(DropinTrial, MediansDecideAndALosingPlanIsDroppedAfterItsProbeOrAWindow) {
  Trial t;
  EXPECT_FALSE(t.add_redist(1.0));  // nothing to compare with yet
  t.add_native(9.0);                // a first call that paid for its connections
  t.add_native(2.0);
  EXPECT_FALSE(t.native_known());
  t.add_native(2.2);
  ASSERT_TRUE(t.native_known());
  EXPECT_DOUBLE_EQ(t.native(), 2.2);  // the median, not the lucky or the unlucky run
  // One lucky run among three slow ones does not keep the plan.
  Trial lucky = t;
  EXPECT_FALSE(lucky.add_redist(0.5));
  EXPECT_FALSE(lucky.add_redist(3.0));
  EXPECT_TRUE(lucky.add_redist(3.1));
  // A plan that wins its probe is watched by windows of kWindow runs, each followed by one
  // native call that renews the time to beat.
  EXPECT_FALSE(t.add_redist(1.0));
  EXPECT_FALSE(t.add_redist(1.1));
  EXPECT_FALSE(t.add_redist(9.0));  // one preempted run: the median is 1.1, the plan is kept
  EXPECT_TRUE(t.wants_native());    // and the time to beat is measured again
  t.add_native(2.0);                // the last three native runs: 2.0, 2.2, 2.0
  EXPECT_FALSE(t.wants_native());
  EXPECT_DOUBLE_EQ(t.native(), 2.0);
  for (std::size_t k = 0; k < Trial::kWindow; ++k) EXPECT_FALSE(t.add_redist(1.5));
  EXPECT_TRUE(t.wants_native());
  t.add_native(2.0);
  for (std::size_t k = 0; k + 1 < Trial::kWindow; ++k) EXPECT_FALSE(t.add_redist(2.5));
  EXPECT_TRUE(t.add_redist(2.5));  // the load changed: a window of slower runs drops it
}

TEST(DropinTrial, AWarmNativeCallRenewsAnInflatedTimeToBeat) {
  Trial t;
  for (double s : {5.0, 5.0, 5.0}) t.add_native(s);  // the first calls, cold
  for (int k = 0; k < 3; ++k) EXPECT_FALSE(t.add_redist(4.0));
  bool dropped = false;
  for (int round = 0; round < 4 && !dropped; ++round) {
    while (!t.wants_native() && !dropped) dropped = t.add_redist(4.0);
    if (!dropped) t.add_native(3.0);  // warm native calls are faster than the plan
  }
  EXPECT_TRUE(dropped);
}

TEST(DropinTransfers, PiecesOverTheCapAreSplitAtBothEnds) {
  const Matrix m = square(2, {0, 10'000, 7'001, 0});
  const exchange::Platform q = platform(2, 1.0);
  const exchange::Instance in = matrix_instance(m, q);
  const exchange::Plan plan = exchange::plan(in, "whole");
  Decision d;
  d.ranks = all_transfers(in, plan, 2, 3000);
  EXPECT_EQ(d.ranks[0].sends.size(), 4u);  // 3000 + 3000 + 3000 + 1000
  EXPECT_EQ(d.ranks[1].recvs.size(), 4u);
  expect_transfers_deliver(m, d, 3000);
}

}  // namespace
}  // namespace redist::mpi::dropin
