// The proven optimum of a small star instance, by branch and bound (docs/star.md `--algorithm
// exact`).
//
// Normal form (each step keeps a schedule valid and its makespan unchanged or smaller):
//  - no worker forwards a received task (the master can send the task directly to the final
//    receiver in the slot of the second forward);
//  - workers send only own tasks, as early as possible, the senders back to back from time 0 by
//    non-decreasing c (this makes every arrival at the master as early as possible, Theorem 1's
//    first exchange; a sender's own tasks are never needed before it sends them);
//  - the master forwards the k-th task to arrive, as soon as it has arrived and the previous
//    forward is over (an earlier arrival never delays a computation).
// So a schedule is a vector of send counts n_i (0 <= n_i <= L_i) and a receiver sequence
// (r_1..r_n), any worker, a sender included (STAR Figures 2-3). Both are enumerated depth-first,
// pruned by the best makespan so far (started from BBA, MBBSA and R-BSA), by the senders' own
// finish max (L_i - n_i) w_i, by "the next task still has to be computed somewhere"
// and by symmetry (workers with equal c, w and current end are interchangeable).
//
// Guarantee: optimal (`optimal` and `lower_bound` set). Refuses (InputError) instances with more
// than kExactMaxWorkers workers or kExactMaxTasks tasks in total, and any search that would
// visit more than kExactMaxNodes nodes (it then stops: no unproven answer is returned).
// Complexity: exponential; bounded by kExactMaxNodes (about 3 s).
#pragma once

#include "redist/star/model.hpp"

namespace redist::star {

inline constexpr std::size_t kExactMaxWorkers = 6;
inline constexpr std::int64_t kExactMaxTasks = 40;
inline constexpr std::int64_t kExactMaxNodes = 150000000;

// True when plan_exact accepts the instance.
bool exact_accepts(const Instance& instance);

Schedule plan_exact(const Instance& instance);

}  // namespace redist::star
