// The proven optimum of a small star instance, by branch and bound (docs/star.md `--algorithm
// exact`). Ours: STAR §3.2 shows the problem's structure (Theorem 1, Figures 2-3), not a solver.
//
// Normal form (each step keeps a schedule valid and its makespan unchanged or smaller):
//  - no worker forwards a received task (the master can send the task directly to the final
//    receiver in the slot of the second forward);
//  - workers send only own tasks, as early as possible, the senders back to back from time 0 by
//    non-decreasing c (this makes every arrival at the master as early as possible, Theorem 1's
//    first exchange; a sender's own tasks are never needed before it sends them);
//  - the master forwards the k-th task to arrive, as soon as it has arrived and the previous
//    forward is over (an earlier arrival never delays a computation);
//  - no task returns to its sender (keeping it instead computes it no later).
// So a schedule is a vector of send counts n_i (0 <= n_i <= L_i) and a receiver sequence
// (r_1..r_n), any worker, a sender included (STAR Figures 2-3).
//
// Search: the incumbent starts as the best of BBA, MBBSA and R-BSA; if it meets
// star_lower_bound (lower_bound.hpp) it is optimal at once. Otherwise every count vector gets a
// bound (own ends max (L_i - n_i) w_i; the remaining forwards, each >= min c, after their
// arrivals, the last one followed by some c_r + w_r), and the vectors are searched by
// non-decreasing bound until the bound reaches the incumbent. The receivers are enumerated
// depth-first, earliest new end first, pruned by that bound at every node, by a capacity test
// (each worker can compute only so many of the remaining tasks before the incumbent, given its
// current end, its c and the master's next free time), by a memo of the visited states
// (forwards done, master's free time, every worker's end: a state already searched with an
// equal or smaller makespan so far is not searched again) and by symmetry (workers with equal
// c, w and current end that send no later task are interchangeable).
//
// Guarantee: optimal when the search completes (`optimal` true, Proof::search, `lower_bound` =
// makespan). The search stops as soon as its best schedule meets star_lower_bound (up to
// kSearchResolution): optimal by that bound (Proof::lower_bound), with the note "exact stopped at
// the lower bound after N search nodes". After `max_nodes` nodes, or once its time limit has
// passed, it stops and returns its best schedule (never worse than the heuristics; a status, not an
// error) with a note naming the limit, and as lower bound the larger of star_lower_bound and the
// least bound of the count vectors left unsearched (every schedule of a searched vector is no
// better than the incumbent); `optimal` is false unless the makespan meets that bound. Refuses
// (InputError), before any search, instances with more than
// kExactMaxWorkers workers or kExactMaxTasks tasks in total. Complexity: exponential; at most
// max_nodes nodes, each O(m^2 + n) for n moved tasks, plus the enumeration of the prod_i (L_i + 1)
// count vectors (at most 2 x 10^5 within the limits); the memo holds at most 2^18 states (about 30
// MB) and is emptied when full.
#pragma once

#include "redist/common/deadline.hpp"
#include "redist/star/model.hpp"

namespace redist::star {

inline constexpr std::size_t kExactMaxWorkers = 6;
inline constexpr std::int64_t kExactMaxTasks = 40;
inline constexpr std::int64_t kExactMaxNodes = 20000000;

// True when plan_exact accepts the instance.
bool exact_accepts(const Instance& instance);

// `time_limit` stops the search as its node cap does (the note then names the time limit).
Schedule plan_exact(const Instance& instance, std::int64_t max_nodes = kExactMaxNodes,
                    const Deadline& time_limit = Deadline());

// The same search started from `start`, a valid schedule of the instance (`best` passes the
// heuristics' best instead of recomputing it).
Schedule plan_exact_from(const Instance& instance, const Schedule& start,
                         std::int64_t max_nodes = kExactMaxNodes,
                         const Deadline& time_limit = Deadline());

}  // namespace redist::star
