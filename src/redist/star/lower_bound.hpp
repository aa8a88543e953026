// A lower bound on the makespan of every valid schedule of a star instance (STAR §3.1's tasks
// model, docs/star.md "Lower bound"), stronger than the computation bound of planner.hpp.
//
// Notation: N = sum_i L_i tasks; for a candidate makespan M, cap_i(M) = floor(M / w_i) is the
// most tasks worker i can compute by M (it computes one task at a time, each in w_i);
// c0 = min c_i over workers holding a task (no task reaches the master before c0: it must first
// leave its owner, which takes that owner's c).
// Suppose a schedule of makespan M exists. Then, at that M:
//  (T1) computation: sum_i cap_i >= N.
//  (T2) tasks that must leave: worker i computes at most cap_i tasks, so at least
//       e_i = max(0, L_i - cap_i) of its own tasks are sent by i, each through the master's single
//       receive port for c_i. The last of these E = sum_i e_i receptions ends at >= sum_i e_i c_i;
//       that task must still be forwarded to some worker r (>= c_r) and computed there (>= w_r):
//       M >= sum_i e_i c_i + min_r (c_r + w_r)   (when E > 0).
//  (T3) per-receiver capacity: a task worker r computes without owning it was forwarded to r by
//       the master, and r's k-th such reception ends at >= c0 + k c_r (r receives one task at a
//       time); r computes received tasks after its kept ones, one at a time, so its k-th
//       received computation ends at >= c0 + c_r + k w_r, and its k-th reception is followed
//       by a computation (>= c0 + k c_r + w_r). So r computes at most
//         a_r = max(0, min(floor((M - c0 - c_r) / w_r), floor((M - c0 - w_r) / c_r)))
//       received tasks, and at most min(cap_r, L_r + a_r) tasks in all: their sum must be >= N.
//  (T4) the master's send port: at least E tasks are computed by workers that do not own them
//       (N minus the at most sum_i min(L_i, cap_i) computed by their owners), each forwarded by
//       the master to its computing worker r, which takes c_r of the single send port, no earlier
//       than c0. At most min(a_r, cap_r) go to r, so the last forward ends at >= c0 + S, S the sum
//       of the E smallest c_r in the multiset holding c_r min(a_r, cap_r) times, and is followed by
//       a computation: M >= c0 + S + min w_r over those r.
// Each term only weakens as M grows (caps grow, e_i shrink), so "M satisfies T1-T4" holds on a
// half-line [B, inf) that contains every feasible makespan: B is the bound returned.
// Complexity: O(m log m) per test of M, times the ~64 steps of a bisection on M.
#pragma once

#include "redist/star/model.hpp"

namespace redist::star {

// T1 alone: the least M with sum_i floor(M / w_i) >= sum_i L_i.
double computation_lower_bound(const Instance& instance);

// B above, never below the computation bound (T1 alone). 0 when there is no task.
double star_lower_bound(const Instance& instance);

// True when M satisfies T1-T4 (exposed for tests).
bool star_bound_admits(const Instance& instance, double makespan);

}  // namespace redist::star
