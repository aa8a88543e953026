// The `exact` ring planner: the proven optimal makespan of a SMALL ring redistribution instance
// (heterogeneous bidirectional or unidirectional, docs/formats.md), with a schedule achieving it.
//
// WHAT IT SOLVES. Given loads, targets and link costs, it returns a valid one-port store-and-
// forward schedule whose makespan is the minimum over all valid schedules, with
// lower_bound = makespan (the proven optimum itself, not tau6) and optimal = true, unless a limit
// stopped its search (below).
//
// METHOD.
//  1. Costs are scaled to integers by the smallest common denominator D <= max_denominator
//     (refused otherwise); all search arithmetic is then exact in int64.
//  2. Candidate flows. Every schedule induces integer net flows flows[i] = x + prefix[i]
//     (RRV04 Lemma 10), and the System 6 time tau(x) of those flows is a lower bound on every
//     schedule inducing them; tau is convex in x. Starting from the best upper bound known (the
//     ASAP list schedule of execute_flows_asap on the tau6 flows), the candidates x are visited
//     outwards from the minimiser of tau, and a side of the convex function is abandoned as soon
//     as tau(x) >= best.
//  3. For each candidate x, a decision procedure "is there a schedule with these flows and
//     makespan <= best - 1?" is answered by an exhaustive depth-first search; on success best
//     drops to the makespan found and the same x is asked again, otherwise the next x is tried.
//     The search stops as soon as best reaches tau6 (an integer in scaled units): nothing can be
//     shorter. The schedule is then optimal by that bound (Proof::lower_bound) and its note reads
//     "exact stopped at the lower bound (...) after N search nodes"; when the ASAP schedule
//     already meets it, N is 0. Otherwise the proof is the finished search (Proof::search).
//  The decision search steps through EVENT times (0 and the ends of transfers). At each event,
//  every processor whose send port is free either starts one item on a link that still owes items
//  (it must hold an item, and the receiver's receive port must be free) or waits until the next
//  event. Items are identical, so a state is only counts: items still owed per link, and for each
//  processor its in-flight send (direction, time left); items held follow from these.
//  Pruning: (a) per processor, the remaining send work and the remaining receive work must end by
//  the deadline; (b) a processor that must send more than it holds must first receive the
//  missing items one by one (no faster than its cheapest incoming link) and then send the rest
//  (no faster than its cheapest outgoing link); (c) a link that is the only one left at its
//  sender and the only one left into its receiver is used at once when possible (starting it
//  earlier cannot delay anything, as both ports serve nothing else); (d) failed states are
//  memoised per x with the lower bound on their remaining time, which is valid for any deadline
//  (shifting a schedule earlier keeps it valid).
//
// WHY IT IS OPTIMAL. Fix an optimal schedule; fix each port's order of transfers and which
// received item each forwarded item is. All constraints are then "start_b >= end_a", so starting
// every transfer as early as possible (a semi-active schedule) keeps it valid and not longer, and
// every start is then 0 or the end of some transfer. Such a schedule is reached by the search: at
// each event time it starts exactly its transfers starting then and lets the other ports wait.
// Its flows are x + prefix for some x with tau(x) <= makespan, which the enumeration visits
// unless tau(x) >= best, in which case that x cannot beat best. Pruning (a)-(d) only removes
// states from which no schedule meets the deadline, or (c) replaces a choice by a dominating one.
// Hence the final best is the optimum; it is >= tau6 >= Lemma 12.
//
// LIMITS (ExactLimits). Size limits are checked before any search and refused with
// redist::InputError, message stating the limit: n <= max_n (8); at most max_items (32) items
// moved by the tau6 flows (sum of |flows|, path "$.ring.loads"); every cost a multiple of 1/D for
// some D <= max_denominator (1000) with scaled costs <= max_scaled_cost (10^6) (path "$.ring").
// The search itself has two limits, each reported as a status, never as an error: at most
// max_search_nodes (2*10^6) search nodes in total, and the time limit (ExactLimits::time_limit,
// `--time-limit`). At either, the search stops and returns its incumbent (the ASAP schedule or the
// best found since; always valid), with the System 6 optimum as lower bound, optimal = false
// (unless the makespan meets that bound) and one note naming the limit: "exact stopped at its limit
// of N search nodes ..." or "time limit of S s reached (N search nodes) ...".
//
// COMPLEXITY. Exponential: per candidate x, the number of states is at most the product over
// links of (count + 1) times, per processor, the in-flight choices (3 directions x time left);
// the node budget bounds the total (about a second and a few hundred MB at most). Measured: random
// rings with n = 6..8 and up to 32 moved items take under 3 ms each (at most ~8000 nodes).
#pragma once

#include <cstdint>
#include <optional>

#include "redist/common/deadline.hpp"
#include "redist/ring/model.hpp"

namespace redist::ring {

// The sizes the search takes by default (the command line's `exact`): beyond them its time grows
// past a few seconds.
inline constexpr std::size_t kExactMaxProcessors = 8;
inline constexpr std::int64_t kExactMaxItems = 32;  // items moved by the tau6 flows

struct ExactLimits {
  std::size_t max_n = kExactMaxProcessors;
  std::int64_t max_items = kExactMaxItems;  // items moved by the tau6 flows (sum of |flows|)
  std::int64_t max_denominator = 1000;
  std::int64_t max_scaled_cost = 1'000'000;
  std::int64_t max_search_nodes = 2'000'000;  // also bounds the memo (about 200 bytes a node)
  Deadline time_limit;                        // none by default
};

// Proven optimal schedule: algorithm "exact", makespan = lower_bound = the optimum,
// optimal = true, unless its node or time limit stopped the search (then its best schedule, the
// System 6 bound and a note: above). Throws InputError for invalid instances or instances over the
// size limits.
Schedule plan_exact(const Instance& instance, const ExactLimits& limits = {});

// The same, empty when the instance is over the size limits (too many processors or items, costs
// without a small common denominator); still throws InputError when it is invalid. A search
// stopped by a limit returns its best schedule, not an empty result.
std::optional<Schedule> try_plan_exact(const Instance& instance, const ExactLimits& limits = {});

}  // namespace redist::ring
