// A truly optimal schedule (docs/lau.md `optimal`): the minimum time in the chosen mode over all
// valid schedules {linear_i - h} (LAU Lemma 1), ties to less traffic, then to the smaller h.
//
// Search range: h in [min linear, max linear]. Outside it every flow has the same sign; moving h
// back towards the range lowers every |flow| and so every node's outgoing load (no green node
// turns red, no thread grows: LAU Lemma 2's argument) and strictly lowers the traffic.
//
// Single-send, O(n log n), independent of the load values: node i is green exactly for
// h in [linear_i - l_i, linear_{i-1} + l_i] (its outgoing load max(s_i - h, 0) + max(h - s_{i-1},
// 0) is convex in h), so T_s(h) is piecewise constant with at most 2n breakpoints. A sweep over the
// sorted breakpoints maintains the longest circular run of red nodes in a segment tree; in each
// piece the best h for the traffic is the median of the flows clamped to the piece.
//
// Multi-send, O(n log n): by closed_forms.hpp, T_m(h) <= T iff for every link
// linear_i - W^next_i(T) <= h <= linear_i + W^prev_i(T), W the sums of the T loads upstream of the
// link in each direction. The feasible h form an interval that grows with T: binary search on T
// in [1, 2n] (|flow| <= max - min linear <= 2 x total load, so 2n loads always suffice), then the
// median clamped to the interval.
//
// A balanced instance (all Linear flows 0) gives h = 0 and time 0 in both modes.
#pragma once

#include "redist/lau/model.hpp"

namespace redist::lau {

Plan plan_optimal(const Instance& instance, Mode mode);

// The minimal T_s(h) over h, and the h chosen, by the sweep (exposed for tests and benchmarks).
Plan plan_optimal_single(const Instance& instance);
Plan plan_optimal_multi(const Instance& instance);

}  // namespace redist::lau
