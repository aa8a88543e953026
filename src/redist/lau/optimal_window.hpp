// LAU §5, Lemma 5 and Figure 9: the published "Optimal" algorithm, exactly as published.
//
// Start from the Traffic schedule s; the deficit of a red node is out_i - l_i when it sends to its
// right (positive node) and -(out_i - l_i) when it sends to its left (negative node). Without red
// node the Traffic schedule is returned; otherwise every h' of the window [d_min, d_max] is tried
// on {s_i - h'} and the one of minimal time in the chosen mode wins (ties: less traffic, then
// smaller h).
// The scan stops early, with the same result, once its best shift has the optimal time (computed
// first by `optimal`, optimal.hpp) and no later shift can win the tie: the traffic is convex in h',
// so once it no longer decreases and is at least the best shift's, every later shift has as much
// or more, and a larger h. The plan's note then reads "optimal-window stopped at the optimum after
// k of the w shifts of its window ...".
// Guarantee: none. LAU Lemma 5 (the optimum lies in the window) is false: docs/lau.md's
// counterexample (loads 9 11 10 0 4 0 6 1 4 5) has window {5} with T_s = 5, while the Traffic
// schedule itself (h' = 0) has T_s = 2. Use `optimal` (optimal.hpp) for a true optimum.
// Limits: a window with n * window above kOptimalWindowMaxWork is refused up front, before the
// scan (OptionError at "algorithm"); the scan itself has no node or time limit.
// Complexity: O(n * window) single-send, O(n log n * window) multi-send, window = d_max - d_min +
// 1, plus O(n log n) for the optimum.
#pragma once

#include "redist/lau/model.hpp"

namespace redist::lau {

// n x window evaluations allowed: 1.8e8 took 7.5 s single-send and 14 s multi-send on this
// (loaded) 2-core machine; 1.8e9 took 98 s single-send.
inline constexpr std::int64_t kOptimalWindowMaxWork = 200'000'000;

struct DeficitWindow {
  bool defined = false;  // false: no red node
  std::int64_t d_min = 0, d_max = 0;
  std::int64_t size() const { return defined ? d_max - d_min + 1 : 0; }
};

// Deficits of the red nodes of a valid schedule (LAU §5).
DeficitWindow deficit_window(const Instance& instance, const std::vector<std::int64_t>& flows);

Plan plan_optimal_window(const Instance& instance, Mode mode);

}  // namespace redist::lau
