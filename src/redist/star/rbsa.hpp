// STAR §3.5, Algorithm 5: the Reversed Binary-Search Algorithm (R-BSA), a heuristic.
//
// The copy's pseudo-code is damaged (line structure lost, and line 25 returns L_sched <= L_send);
// this is our reading of §3.5's prose and of the surviving fragments:
//  - Phases 1-2 are MBBSA's (deadline_phases.hpp): senders, l_s, L_send, the sender order by
//    non-decreasing c and thereby the arrival A_k of the k-th task at the master.
//  - Phase 3: every receiver (f_r < M) gets begin_r = M: the time from which its extra tasks would
//    be computed (none yet).
//  - Phase 4 fills the receivers' idle time backward from M: T is the time before which the
//    master's send port is free (initially M). The tasks are placed from the last forward
//    (k = L_send) down to the first; for task k the receiver is the one that can start receiving
//    it as late as possible, start_r = min(begin_r - w_r, T) - c_r maximal (ties: lower index),
//    subject to the task fitting in r's idle gap (begin_r - w_r >= f_r) and having reached the
//    master (start_r >= A_k: the paper checks only the first arrival, master_in = c_{s1}; with
//    L_send known we check the k-th task's own arrival, which keeps every schedule valid). Then
//    begin_r -= w_r and T = start_r. M succeeds iff all L_send tasks are placed (the copy's
//    "L_sched <= L_send" is read as ">=").
//  - The search over M is a bisection (as for MBBSA, the upper end jumps to the real makespan of
//    the schedule built), stopped at a relative width of 1e-9; R-BSA's success is not monotone in
//    M, so this is a heuristic search, as in the paper.
//  - The placed forwards are then executed as early as possible in the same order (never later
//    than placed), so the real makespan is <= M.
//
// Guarantee: a valid schedule, never worse than no redistribution. No optimality claim.
// Complexity: O(log(1e9) * (m + L_send) log m): the receiver of each task comes from heaps
// (receivers whose reception would start at T - c_r, by c_r; the others by x_r - c_r, with
// x_r = begin_r - w_r; a third heap moves receivers to the first group as T decreases).
#pragma once

#include <optional>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::star {

std::optional<Schedule> rbsa_decide(const Instance& instance, double makespan);

struct SenderPhase;
// Phase 4 alone: the receiver of each forward (in forward order), or nullopt when some task
// cannot be placed.
std::optional<std::vector<std::size_t>> rbsa_receivers(const Instance& instance, double makespan,
                                                       const SenderPhase& phase);

Schedule plan_rbsa(const Instance& instance);

}  // namespace redist::star
