// RRV04 §5.2, Algorithm 3: optimal redistribution on homogeneous bidirectional rings.
//
// Every link costs the same c. The algorithm works in synchronous rounds of length c: in round s
// (time [(s-1)c, sc)) it computes, on the current imbalances,
//   delta_max = max(max_i |delta_i|, max over non-trivial slices C_{k,l} of ceil(|delta_{k,l}|/2))
// (non-trivial: 2 to n-1 consecutive processors), and applies the rules of Algorithm 3:
//  - a maximal slice (ceil(|delta_{k,l}|/2) = delta_max) sends one item through each extremity
//    when positive, receives one through each when negative (Steps 4-9); when delta_max = 2 only
//    the slices with |delta_{k,l}| = 4 use both extremities, those with 3 use the one in the
//    direction i -> i+1 (Steps 10-18);
//  - a processor with delta_i = delta_max that is not yet sending sends to succ(i), one with
//    delta_i = -delta_max that is not yet receiving receives from pred(i) (Steps 19-24);
//  - when delta_max = 1, a processor with delta_i = 0 that receives from one side forwards to the
//    other side in the same round (Steps 25-30), transitively along chains of such processors.
// Several rules naming the same send give one send. Lemmas 7 and 8: the rules respect the
// one-port model and delta_max drops by exactly one per round, so the schedule takes
// delta_max(initial) rounds, i.e. it meets the Lemma 6 lower bound.
//
// Guarantee (RRV04 Theorem 3): when loads and targets are >= 1, the makespan equals the Lemma 6
// bound delta_max * c (`optimal` = true).
//
// Correction to the paper: Lemmas 7-8 prove the one-port model and the decrease of delta_max,
// but not the holding rule (a processor cannot send an item it does not hold), and the rounds
// break it even when loads and targets are >= 1. Smallest case (exhaustive over n <= 6, counts
// <= 5): loads (1, 1, 1, 4), targets (1, 1, 4, 1), delta = (0, 0, -3, 3). Round 1: P_3 -> P_0
// (Step 21), P_1 -> P_2 (Step 24); round 2: P_2 pulls from P_1 again (Step 24) but P_1 holds
// nothing until the end of that round (2266 of the 10,000 random instances of test (1)). The
// flows of the rounds still fit in the same number of rounds: each processor sends and receives
// at most delta_max items, and sending the items of every clockwise link in the first rounds
// (as soon as possible) and those of every counter-clockwise link in the last rounds (as late as
// possible) is valid whenever loads and targets are >= 1 (proof at retime_flows in the .cpp).
// The planner emits the rounds as they are when they respect the holding rule, this re-timing
// otherwise (with a note), and, when loads or targets of 0 defeat both the re-timing and its
// mirror image, schedules the flows with execute_flows_asap (flow_executor.hpp), setting
// `optimal` only if that still meets the bound. A one-port conflict or a round in which
// delta_max does not drop by exactly one would contradict Lemmas 7-8: std::logic_error (never
// observed in millions of instances).
//
// Each round finds the extremities of the slices over a threshold in O(n) from the prefix sums of
// the imbalances (see detail below), never enumerating the O(n^2) slices.
// Complexity: O(n * delta_max) time, O(n) memory plus the output (one Run per maximal sequence of
// rounds in which a processor sends in the same direction). Instances with n * delta_max above
// kBidirectionalHomogeneousMaxSteps are refused (InputError) rather than run for hours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "redist/ring/model.hpp"

namespace redist::ring {

// Upper limit on n * delta_max (processor-rounds) that plan_bidirectional_homogeneous accepts.
inline constexpr std::int64_t kBidirectionalHomogeneousMaxSteps = 2'000'000'000;

// Requires a bidirectional ring whose costs are all equal (throws InputError at "--algorithm"
// otherwise) and n * delta_max <= kBidirectionalHomogeneousMaxSteps (InputError at
// "$.ring.loads"). Returns algorithm "bidirectional-homogeneous", lower_bound = Lemma 6 bound.
Schedule plan_bidirectional_homogeneous(const Instance& instance);

namespace detail {

// O(n) extremity detection for the non-trivial slices of a ring, exposed for tests.
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
