#include "redist/exchange/migration.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

std::string at(const char* field, std::size_t k) { return fmt::format("{}[{}]", field, k); }

std::int64_t max_owner() { return static_cast<std::int64_t>(kMaxNodes) - 1; }

// Checks one map; returns its number of items and raises `largest` to its largest owner.
std::int64_t check_ranges(const std::vector<OwnerRange>& ranges, const char* field,
                          std::int64_t& largest) {
  if (ranges.size() > kMaxMigrationRanges) {
    throw InputError(
        fmt::format("{} ranges, at most {} are accepted", ranges.size(), kMaxMigrationRanges),
        field);
  }
  std::int64_t next = 0;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const OwnerRange& r = ranges[k];
    if (r.begin != next) {
      throw InputError(k == 0
                           ? std::string("the first range must begin at item 0")
                           : fmt::format("must begin at {}, where the range before it ends", next),
                       at(field, k) + "[0]");
    }
    if (r.end <= r.begin || r.end > kMaxMigrationItems) {
      throw InputError(fmt::format("the end must be in {}..{} (ranges are [begin, end))",
                                   r.begin + 1, kMaxMigrationItems),
                       at(field, k) + "[1]");
    }
    if (r.owner < 0 || r.owner > max_owner()) {
      throw InputError(fmt::format("owner must be in 0..{}", max_owner()), at(field, k) + "[2]");
    }
    largest = std::max(largest, r.owner);
    next = r.end;
  }
  return next;
}

}  // namespace

std::vector<OwnerRange> owner_ranges(const std::vector<std::int64_t>& owners, const char* field) {
  if (owners.size() > kMaxMigrationOwners) {
    throw InputError(fmt::format("{} items, at most {} are accepted item by item; give ranges "
                                 "[begin, end, owner] instead",
                                 owners.size(), kMaxMigrationOwners),
                     field);
  }
  std::vector<OwnerRange> ranges;
  for (std::size_t k = 0; k < owners.size(); ++k) {
    if (owners[k] < 0 || owners[k] > max_owner()) {
      throw InputError(fmt::format("owner must be in 0..{}", max_owner()), at(field, k));
    }
    const auto item = static_cast<std::int64_t>(k);
    if (!ranges.empty() && ranges.back().owner == owners[k]) {
      ranges.back().end = item + 1;
    } else {
      ranges.push_back({item, item + 1, owners[k]});
    }
  }
  return ranges;
}

Instance from_ownership(const Ownership& o) {
  if (o.item_bytes < 1 || o.item_bytes > kMaxMessageBytes) {
    throw InputError(fmt::format("must be in 1..{}", kMaxMessageBytes), "item_bytes");
  }
  std::int64_t largest = 0;
  const std::int64_t items = check_ranges(o.old_owners, "old", largest);
  const std::int64_t new_items = check_ranges(o.new_owners, "new", largest);
  if (new_items != items) {
    throw InputError(fmt::format("covers {} items but the old map covers {}", new_items, items),
                     "new");
  }
  const auto needed = std::max<std::size_t>(2, static_cast<std::size_t>(largest) + 1);
  if (o.nodes != 0 && (o.nodes < needed || o.nodes > kMaxNodes)) {
    throw InputError(
        fmt::format("must be in {}..{} (1 + the largest owner, at least 2)", needed, kMaxNodes),
        "nodes");
  }
  // Walk both maps together: each stretch where both owners are constant moves as one.
  std::unordered_map<std::int64_t, std::int64_t> moved;  // items, keyed by from * kMaxNodes + to
  const auto p = static_cast<std::int64_t>(kMaxNodes);
  std::size_t i = 0, j = 0;
  std::int64_t item = 0;
  while (item < items) {
    const OwnerRange &a = o.old_owners[i], &b = o.new_owners[j];
    const std::int64_t end = std::min(a.end, b.end);
    if (a.owner != b.owner) moved[a.owner * p + b.owner] += end - item;
    item = end;
    if (a.end == end) ++i;
    if (b.end == end) ++j;
  }
  if (moved.size() > kMaxMessages) {
    throw InputError(fmt::format("{} pairs of nodes exchange items, at most {} messages are "
                                 "accepted",
                                 moved.size(), kMaxMessages),
                     "new");
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs(moved.begin(), moved.end());
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  Instance in;
  in.nodes = o.nodes != 0 ? o.nodes : needed;
  in.send_bandwidth.assign(in.nodes, 1.0);
  in.recv_bandwidth.assign(in.nodes, 1.0);
  in.messages.reserve(pairs.size());
  for (const auto& [key, count] : pairs) {
    const std::int64_t from = key / p, to = key % p;
    if (count > kMaxMessageBytes / o.item_bytes) {
      throw InputError(fmt::format("nodes {} and {} would exchange more than {} bytes", from, to,
                                   kMaxMessageBytes),
                       "item_bytes");
    }
    in.messages.push_back({from, to, count * o.item_bytes});
  }
  validate_instance(in);
  return in;
}

}  // namespace redist::exchange
