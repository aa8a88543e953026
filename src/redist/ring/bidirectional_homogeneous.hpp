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
// rounds in which a processor sends in the same direction). A round costs about as much as n + 32
// processor steps (its fixed work is that of ~32 processors); instances with
// delta_max * (n + 32) above kBidirectionalHomogeneousMaxSteps are refused (InputError) rather
// than run for minutes (measured: 2*10^9 steps take about 25 s on a loaded 2-core machine).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "redist/ring/model.hpp"
#include "redist/ring/slices.hpp"

namespace redist::ring {

// Upper limit on delta_max * (n + kAlgorithm3RoundOverhead), the steps of Algorithm 3, that
// plan_bidirectional_homogeneous accepts.
inline constexpr std::int64_t kBidirectionalHomogeneousMaxSteps = 2'000'000'000;
inline constexpr std::int64_t kAlgorithm3RoundOverhead = 32;

// delta_max of the initial imbalances (RRV04 Algorithm 3, Step 1): the number of rounds
// Algorithm 3 takes. O(n).
std::int64_t algorithm3_rounds(const Instance& instance);

// True when plan_bidirectional_homogeneous accepts the instance: a bidirectional ring with equal
// costs and delta_max * (n + 32) <= kBidirectionalHomogeneousMaxSteps. O(n).
bool bidirectional_homogeneous_applies(const Instance& instance);

// Requires a bidirectional ring whose costs are all equal (throws InputError at "--algorithm"
// otherwise) and delta_max * (n + 32) <= kBidirectionalHomogeneousMaxSteps (InputError at
// "$.ring.loads"). Returns algorithm "bidirectional-homogeneous", lower_bound = Lemma 6 bound.
Schedule plan_bidirectional_homogeneous(const Instance& instance);

}  // namespace redist::ring
