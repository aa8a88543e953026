// LAU Propositions 1 and 2: the execution times of a valid schedule in closed form (docs/lau.md).
//
// Single-send (Proposition 1): T_s = 1 + the length of the longest chain of consecutive red nodes
// (circularly), 0 when no flow is non-zero, and deadlock (nullopt) when every node is red.
//
// Multi-send (Proposition 2, in the form redist proves): let S_i(k) be what the sender of link i
// (flows[i] > 0: node i) has sent on it after step k. The multi-send rule gives
// S_i(k) = min(f_i, l_i + S_{i-1}(k-1)), which unrolls to
// min over j of (f_{i-j} + l_{i-j+1} + ... + l_i) and l_{i-k} + ... + l_i. Every term of the first
// kind is >= f_i, because f_{i-j} - f_i + l_{i-j+1} + ... + l_i = t_{i-j+1} + ... + t_i >= 0. So
// link i completes after the smallest m such that the m loads l_i, l_{i-1}, ... (upstream of the
// link, circularly, repeating if needed) sum to at least f_i; symmetrically for negative flows
// with l_{i+1}, l_{i+2}, ... . T_m = the maximum of these "thread" lengths (0 with no flow;
// deadlock when a flow is non-zero and every load is 0). This is LAU Definition 1's thread; the
// case distinction green/red start of the paper is not needed for valid schedules.
//
// Both require valid flows (model.hpp unbalanced_node). Complexity: O(n) single, O(n log n) multi.
#pragma once

#include "redist/lau/model.hpp"

namespace redist::lau {

Time t_single_closed(const Instance& instance, const std::vector<std::int64_t>& flows);
Time t_multi_closed(const Instance& instance, const std::vector<std::int64_t>& flows);

// Longest circular run of `true` in red (n if all true).
std::size_t longest_circular_run(const std::vector<char>& red);

// Circular window sums of loads, for the thread lengths of the multi-send mode.
class LoadWindows {
 public:
  explicit LoadWindows(const std::vector<std::int64_t>& loads);
  // Sum of the m loads l_i, l_{i-1}, ..., circularly (m may exceed n).
  Int128 upstream_of_next(std::size_t i, std::int64_t m) const;
  // Sum of the m loads l_{i+1}, l_{i+2}, ..., circularly.
  Int128 upstream_of_prev(std::size_t i, std::int64_t m) const;
  // Smallest m >= 1 with upstream_of_next(i, m) >= need (need > 0); nullopt if total is 0.
  Time thread_next(std::size_t i, Int128 need) const;
  Time thread_prev(std::size_t i, Int128 need) const;
  Int128 total() const { return total_; }

 private:
  std::size_t n_;
  std::vector<Int128> prefix_;  // prefix over the doubled load array, 2n + 1 entries
  Int128 total_;
};

}  // namespace redist::lau
