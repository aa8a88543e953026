// STAR §3.4.3, Algorithm 3, Phase 4: which receiver gets each forwarded task, for a target
// makespan M, once Phases 1-3 (deadline_phases.hpp) have given the senders, L_send, the first
// arrival c_{s1} at the master and each receiver's deadlines M - k w_r (k = 1 .. cap_r).
//
// `paper_receivers` is Algorithm 3 as printed (the copy lost its line structure; read from the
// prose of Phase 4 and the surviving lines 24-40):
//  - D holds every deadline of every receiver (line 26: all L_recv of them), sorted by
//    non-decreasing deadline; ties (the paper names none) by lower receiver index, the order a
//    stable sort of D as Phase 3 builds it gives (receivers in index order);
//  - Moore's algorithm (moore.hpp) scans all of D from t = c_{s1}, with processing time c_r: a
//    deadline is added to sigma, and when t exceeds it the reception of largest c_r in sigma is
//    removed; among equal c_r the latest added ("the last reception is suppressed", Phase 4);
//  - M succeeds iff |sigma| >= L_send, and the k-th task to reach the master goes to the k-th
//    receiver of sigma in deadline order ("we take the L_send first elements of sigma", Theorem 3).
//
// Homogeneous links (every c equal) use a fast path that returns the same receivers. Proof:
// with one processing time c, the reception removed on a late addition is the one just added
// (largest c, latest added), so sigma only grows and a deadline d is kept iff t + c <= d, t being
// c_{s1} plus c per reception kept before it. (i) A kept deadline is never removed later, so the
// first L_send of the final sigma are the first L_send kept: the scan may stop there. (ii) While
// nothing is kept t does not change, so every deadline below t + c that comes before the next kept
// one is dropped: each receiver jumps over its dropped deadlines with one division (and an exact
// check of the neighbours), never visiting them. The comparisons are the scan's own floating-point
// ones (t + c against M - k w_r), so the two agree exactly, not only in exact arithmetic.
// On heterogeneous links no such shortcut holds (a later deadline can remove an earlier reception
// of larger c from sigma, so sigma's first L_send are only known at the end): every deadline is
// scanned.
//
// `lazy_receivers` is the variant MBBSA used before (`mbbsa-lazy`): per receiver only its latest
// min(L_send, floor((M - c_{s1}) / c_r) + 1) deadlines, the scan stopped as soon as L_send
// receptions are on time (heterogeneous links), and on homogeneous links the L_send largest
// deadlines. It takes the same decisions as Algorithm 3 (the maximum number of on-time receptions
// reaches L_send in both or in neither) but often other receivers, so other schedules.
//
// Guarantee: both return receivers whose forwards, executed as early as possible, meet M on
// homogeneous links (Theorem 3); on heterogeneous links Moore's model ignores later arrivals at
// the master (§3.5), so the schedule may end after M; its real makespan is what MBBSA keeps.
// Complexity (paper_receivers): heterogeneous links O(L_recv log m), L_recv the number of deadlines
// (at most kMaxMooreJobs, else InputError); homogeneous links O((L_send + J) log m), J <= m L_send
// the receivers' jumps. lazy_receivers: O(J log m), J the deadlines consumed before L_send are on
// time (<= sum_r min(L_send, cap_r)).
#pragma once

#include <cstdint>
#include <vector>

#include "redist/star/deadline_phases.hpp"
#include "redist/star/model.hpp"

namespace redist::star {

// Heterogeneous links: Moore's algorithm scans at most this many deadlines per decision (about
// 1 GB of scan state), else InputError (at $.star) naming bba and rbsa as the way around.
inline constexpr std::int64_t kMaxMooreJobs = 20000000;

// Work done by Moore's scan on heterogeneous links, for tests and benchmarks: decisions taken,
// deadlines scanned, and deadlines the receivers had (sum of their caps, for the lazy variant at
// most L_send each).
struct MbbsaWork {
  std::int64_t decisions = 0;
  std::int64_t deadlines_scanned = 0;
  std::int64_t deadlines_available = 0;
};

// Phase 4 for the phases `p` at makespan M (`strict`: every deadline must be met strictly): false
// when fewer than L_send receptions fit; else appends to `receivers` the receiver of each of the
// L_send forwards, in forwarding order. `work` may be null.
bool paper_receivers(const Instance& instance, const SenderPhase& p, double makespan, bool strict,
                     std::vector<std::size_t>& receivers, MbbsaWork* work);
bool lazy_receivers(const Instance& instance, const SenderPhase& p, double makespan, bool strict,
                    std::vector<std::size_t>& receivers, MbbsaWork* work);

}  // namespace redist::star
