#include "redist/exchange/block_cyclic.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "redist/common/error.hpp"

namespace redist::exchange {
namespace {

// Element by element: the bytes each pair exchanges.
std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> brute_force(const BlockCyclic& l) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> bytes;
  for (std::int64_t e = 0; e < l.elements; ++e) {
    const std::int64_t from = (e / l.from_block) % l.from_procs;
    const std::int64_t to = (e / l.to_block) % l.to_procs;
    if (from != to) bytes[{from, to}] += l.element_bytes;
  }
  return bytes;
}

TEST(BlockCyclic, MatchesAnElementByElementCount) {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 2000; ++trial) {
    BlockCyclic l;
    l.elements = 1 + static_cast<std::int64_t>(rng() % 3000);
    l.element_bytes = 1 + static_cast<std::int64_t>(rng() % 16);
    l.from_block = 1 + static_cast<std::int64_t>(rng() % 12);
    l.to_block = 1 + static_cast<std::int64_t>(rng() % 12);
    l.from_procs = 1 + static_cast<std::int64_t>(rng() % 9);
    l.to_procs = 2 + static_cast<std::int64_t>(rng() % 9);
    const Instance in = block_cyclic(l);
    ASSERT_EQ(in.nodes, static_cast<std::size_t>(std::max(l.from_procs, l.to_procs)));
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> got;
    for (const Message& m : in.messages) got[{m.from, m.to}] = m.bytes;
    ASSERT_EQ(got, brute_force(l)) << "trial " << trial;
    validate_instance(in);
  }
}

TEST(BlockCyclic, SameLayoutMovesNothingAndHugeArraysUseThePeriod) {
  EXPECT_TRUE(block_cyclic({1'000'000, 8, 4, 3, 4, 3}).messages.empty());
  // 2^50 elements: counted over one period of lcm(2 * 4, 3 * 4) = 24 elements.
  const Instance in = block_cyclic({std::int64_t{1} << 50, 1, 2, 4, 3, 4});
  std::int64_t total = 0;
  for (const Message& m : in.messages) total += m.bytes;
  const BlockCyclic period{24, 1, 2, 4, 3, 4};
  std::int64_t per_period = 0;
  for (const auto& [pair, bytes] : brute_force(period)) per_period += bytes;
  EXPECT_EQ(
      total, per_period * ((std::int64_t{1} << 50) / 24) + [&] {
        std::int64_t rest = 0;
        for (const auto& [pair, bytes] : brute_force({(std::int64_t{1} << 50) % 24, 1, 2, 4, 3, 4}))
          rest += bytes;
        return rest;
      }());
}

TEST(BlockCyclic, RefusesBadLayouts) {
  EXPECT_THROW(block_cyclic({0, 1, 1, 2, 1, 2}), InputError);
  EXPECT_THROW(block_cyclic({10, 1, 0, 2, 1, 2}), InputError);
  EXPECT_THROW(block_cyclic({10, 1, 1, 1, 1, 1}), InputError);
  EXPECT_THROW(block_cyclic({10, 1, 1, 5000, 1, 2}), InputError);
  // Owners change at every element over a period far beyond the run limit.
  EXPECT_THROW(block_cyclic({std::int64_t{1} << 52, 1, 1, 4093, 1, 4091}), InputError);  // 33M runs
  // Bytes of one pair beyond 2^53.
  EXPECT_THROW(block_cyclic({std::int64_t{1} << 40, std::int64_t{1} << 20, 1, 2, 1, 3}),
               InputError);
}

}  // namespace
}  // namespace redist::exchange
