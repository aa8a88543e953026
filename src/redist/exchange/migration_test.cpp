#include "redist/exchange/migration.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

using Pairs = std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t>;

Pairs pairs_of(const Instance& in) {
  Pairs out;
  for (const Message& m : in.messages) out[{m.from, m.to}] = m.bytes;
  return out;
}

std::string path_of(const Ownership& o) {
  try {
    from_ownership(o);
  } catch (const InputError& e) {
    return e.path();
  }
  return "no error";
}

TEST(Migration, MatchesAnItemByItemCount) {
  std::mt19937_64 rng(83);
  for (int trial = 0; trial < 1000; ++trial) {
    const std::size_t items = 1 + rng() % 200;
    const std::int64_t owners = 1 + static_cast<std::int64_t>(rng() % 6);
    std::vector<std::int64_t> before(items), after(items);
    for (std::size_t k = 0; k < items; ++k) {
      // Runs of equal owners, as a partitioner writes them.
      before[k] = k > 0 && rng() % 3 != 0
                      ? before[k - 1]
                      : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(owners));
      after[k] = k > 0 && rng() % 3 != 0
                     ? after[k - 1]
                     : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(owners));
    }
    const std::int64_t item_bytes = 1 + static_cast<std::int64_t>(rng() % 9);
    const Instance in =
        from_ownership({owner_ranges(before, "old"), owner_ranges(after, "new"), item_bytes, 0});
    Pairs want;
    std::int64_t largest = 0;
    for (std::size_t k = 0; k < items; ++k) {
      largest = std::max({largest, before[k], after[k]});
      if (before[k] != after[k]) want[{before[k], after[k]}] += item_bytes;
    }
    ASSERT_EQ(pairs_of(in), want) << "trial " << trial;
    ASSERT_EQ(in.nodes, static_cast<std::size_t>(std::max<std::int64_t>(2, largest + 1)));
  }
}

TEST(Migration, RangesCoverHugeArraysAndNodesCanBeGiven) {
  // 2^40 items: the first half moves from 0 to 2, the rest stays on 1.
  const std::int64_t n = std::int64_t{1} << 40;
  const Instance in = from_ownership(
      {{{0, n / 2, 0}, {n / 2, n, 1}}, {{0, n / 4, 2}, {n / 4, n / 2, 2}, {n / 2, n, 1}}, 8, 5});
  EXPECT_EQ(in.nodes, 5u);
  EXPECT_EQ(pairs_of(in), (Pairs{{{0, 2}, n / 2 * 8}}));
  // Nothing moves: an empty instance of 2 nodes.
  EXPECT_TRUE(from_ownership({{{0, 3, 0}}, {{0, 3, 0}}, 1, 0}).messages.empty());
}

TEST(Migration, ErrorsNameTheField) {
  const std::vector<OwnerRange> ok{{0, 4, 0}, {4, 6, 1}};
  EXPECT_EQ(path_of({{{1, 4, 0}}, ok, 1, 0}), "old[0][0]");
  EXPECT_EQ(path_of({ok, {{0, 4, 0}, {5, 6, 1}}, 1, 0}), "new[1][0]");
  EXPECT_EQ(path_of({ok, {{0, 4, 0}, {4, 4, 1}}, 1, 0}), "new[1][1]");
  EXPECT_EQ(path_of({ok, {{0, 4, 0}, {4, 6, -1}}, 1, 0}), "new[1][2]");
  EXPECT_EQ(path_of({ok, {{0, 4, 1}}, 1, 0}), "new");
  EXPECT_EQ(path_of({ok, ok, 0, 0}), "item_bytes");
  EXPECT_EQ(path_of({ok, {{0, 6, 3}}, 1, 3}), "nodes");
  EXPECT_EQ(path_of({{{0, std::int64_t{1} << 40, 0}},
                     {{0, std::int64_t{1} << 40, 1}},
                     std::int64_t{1} << 20,
                     0}),
            "item_bytes");
  try {
    owner_ranges({0, 1, static_cast<std::int64_t>(kMaxNodes)}, "old");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "old[2]");
  }
}

}  // namespace
}  // namespace redist::exchange
