// The messages of a data migration given by two ownership maps: the owner of each item before and
// after (`redist exchange migration`, docs/exchange.md "Migrations"; docs/formats.md).
//
// Items 0..N-1 of `item_bytes` bytes each; an item whose owner changes is item_bytes bytes from
// its old owner to its new one, the bytes of a pair are summed, and an item that stays produces
// nothing. Each map is a list of ranges [begin, end) with one owner, in order and together
// covering 0..N-1 (owner_ranges turns a per-item list into one). The instance has `nodes` nodes
// (0: 1 + the largest owner, at least 2), bandwidths 1 and latency 0 (set them afterwards for a
// platform).
// Complexity: O(R log R) for R ranges in the two maps (a merge of the two lists, then the pairs
// sorted), independent of N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

// Items [begin, end) belong to `owner`.
struct OwnerRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t owner = 0;
};

struct Ownership {
  std::vector<OwnerRange> old_owners;  // before
  std::vector<OwnerRange> new_owners;  // after
  std::int64_t item_bytes = 1;
  std::size_t nodes = 0;  // 0: 1 + the largest owner (at least 2)
};

// At most 2^53 items (a range's end); limits.hpp has the lengths of the lists.
inline constexpr std::int64_t kMaxMigrationItems = std::int64_t{1} << 53;

// The runs of equal owners of a per-item list: InputError at `field[k]` for an owner outside
// 0..kMaxNodes-1, at `field` for more than kMaxMigrationOwners items.
std::vector<OwnerRange> owner_ranges(const std::vector<std::int64_t>& owners, const char* field);

// InputError naming the field: `old[k]` / `new[k]` for a range out of order, empty, or with an
// owner outside 0..kMaxNodes-1 (`old[k][1]` for its end, `old[k][2]` for its owner), `new` when
// the maps cover different items, `old` / `new` for too many ranges, `item_bytes` outside
// 1..2^53 or a pair's bytes beyond 2^53, `nodes` when fewer than 1 + the largest owner or
// beyond kMaxNodes, and `new` for more than kMaxMessages pairs.
Instance from_ownership(const Ownership& ownership);

}  // namespace redist::exchange
