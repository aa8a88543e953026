// Slices of a ring (RRV04 §2): the extreme imbalances of non-trivial slices from prefix sums.
// Used by Lemma 6's bound (bounds.cpp) and by Algorithm 3 (bidirectional_homogeneous.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace redist::ring {

namespace detail {

// O(n) extremity detection for the non-trivial slices of a ring (RRV04 Lemma 6 and Algorithm 3).
//
// prefix[i] = delta_0 + ... + delta_i with prefix[n-1] = 0, so the slice C_{k,l} (k..l clockwise,
// wrapping allowed) has imbalance prefix[l] - prefix[k-1] (indices mod n). C_{k,l} is non-trivial
// (2 to n-1 processors) iff k-1 is neither l (the whole ring) nor l-1 (the single processor l).
// Hence the best slice ending at l is prefix[l] minus the extreme prefix value among indices other
// than l and l-1: keeping the 3 smallest and the 3 largest prefix values (with their indices)
// answers each query in O(1).
class SliceExtremes {
 public:
  // Sentinels returned when no non-trivial slice exists (n = 2).
  static constexpr std::int64_t kNoMax = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t kNoMin = std::numeric_limits<std::int64_t>::max();

  SliceExtremes() = default;
  explicit SliceExtremes(std::span<const std::int64_t> prefix) { reset(prefix); }
  // Recomputes the extremes of `prefix` (which must outlive the queries). O(n), no allocation.
  void reset(std::span<const std::int64_t> prefix) {
    prefix_ = prefix;
    for (std::size_t t = 0; t < 3; ++t) {
      low_[t] = {std::numeric_limits<std::int64_t>::max(), prefix.size()};
      high_[t] = {std::numeric_limits<std::int64_t>::min(), prefix.size()};
    }
    const std::int64_t* p = prefix.data();
    for (std::size_t i = 0; i < prefix.size(); ++i) add(i, p[i]);
  }

  // max / min imbalance over the non-trivial slices C_{k,l} with right end l.
  std::int64_t max_ending_at(std::size_t l) const {
    return trivial() ? kNoMax : prefix_[l] - low_value(l, pred(l));
  }
  std::int64_t min_ending_at(std::size_t l) const {
    return trivial() ? kNoMin : prefix_[l] - high_value(l, pred(l));
  }
  // max / min imbalance over the non-trivial slices C_{k,l} with left end k.
  std::int64_t max_starting_at(std::size_t k) const {
    return trivial() ? kNoMax : high_value(pred(k), k) - prefix_[pred(k)];
  }
  std::int64_t min_starting_at(std::size_t k) const {
    return trivial() ? kNoMin : low_value(pred(k), k) - prefix_[pred(k)];
  }
  // The smallest / largest prefix value and an index holding it (n >= 3).
  std::int64_t min_value() const { return low_[0].value; }
  std::size_t min_index() const { return low_[0].index; }
  std::int64_t max_value() const { return high_[0].value; }
  std::size_t max_index() const { return high_[0].index; }
  // max / min imbalance over all non-trivial slices (kNoMax / kNoMin when n = 2). O(1): an optimal
  // pair (l, m) can be taken among the 3 largest values for l and the 3 smallest for m, since
  // each of l, m excludes at most 2 indices for the other.
  std::int64_t max_slice() const;
  std::int64_t min_slice() const;

 private:
  struct Entry {
    std::int64_t value = 0;
    std::size_t index = 0;
  };
  // Inserts prefix value v at index i into the sorted triples.
  void add(std::size_t i, std::int64_t v) {
    if (v < low_[2].value) {
      if (v < low_[1].value) {
        low_[2] = low_[1];
        if (v < low_[0].value) {
          low_[1] = low_[0];
          low_[0] = {v, i};
        } else {
          low_[1] = {v, i};
        }
      } else {
        low_[2] = {v, i};
      }
    }
    if (v > high_[2].value) {
      if (v > high_[1].value) {
        high_[2] = high_[1];
        if (v > high_[0].value) {
          high_[1] = high_[0];
          high_[0] = {v, i};
        } else {
          high_[1] = {v, i};
        }
      } else {
        high_[2] = {v, i};
      }
    }
  }
  bool trivial() const { return prefix_.size() < 3; }
  std::size_t pred(std::size_t i) const { return i == 0 ? prefix_.size() - 1 : i - 1; }
  // Smallest / largest prefix value at an index other than a and b (exists when n >= 3).
  std::int64_t low_value(std::size_t a, std::size_t b) const {
    for (const Entry& e : low_) {
      if (e.index != a && e.index != b) return e.value;
    }
    return low_[2].value;  // unreachable for n >= 3
  }
  std::int64_t high_value(std::size_t a, std::size_t b) const {
    for (const Entry& e : high_) {
      if (e.index != a && e.index != b) return e.value;
    }
    return high_[2].value;  // unreachable for n >= 3
  }

  std::span<const std::int64_t> prefix_;
  Entry low_[3];   // the 3 smallest prefix values, ascending (n >= 3)
  Entry high_[3];  // the 3 largest, descending
};

}  // namespace detail

}  // namespace redist::ring
