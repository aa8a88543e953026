// Exact SliceRing (SLICE Definition 1), for every ring size q or a forced one: Held-Karp dynamic
// programming over subsets, then branch and bound where the DP's ring is not tight.
//
// Why not the §5.2 ILP with a MILP solver: its big-M rows and MTZ ordering give a weak LP
// relaxation (PIP ran out of memory on 13-14 processors), while the problem has an exact DP:
// with optimal shares T_step(ring) = max(F, max_i comm_i), F = (W + tour)/sum_{ring} 1/w (see
// model.hpp), and F depends on the ring only through its tour cost for the symmetric weight
// d(i,j) = H (c_ij/w_i + c_ji/w_j). So
//  1. Held-Karp gives, for every subset S of processors, the shortest tour through S:
//     LB(S) = (W + tour*(S)) / sum_S 1/w, a lower bound on the T_step of every ring on S;
//  2. subsets are scanned by increasing LB(S) (those of the forced q, or of every size at once,
//     with one incumbent), evaluating the DP's ring exactly and stopping once LB(S) >= the
//     incumbent; when that ring has a member whose communication alone exceeds F (LB not
//     attained), a depth-first branch and bound over the rings of S, bounded by
//     max(partial path + exact DP completion, comms already fixed), finds S's best ring. The scan
//     also stops as soon as the incumbent meets the least LB(S) of all the subsets, the problem's
//     lower bound (within the 2 K u below), with the note "exact stopped at the lower bound after
//     k of m processor sets searched (N branch-and-bound nodes)".
// Under rounding: a rounded quotient or product is within a relative u = 2^-53 of its exact
// value, or within 2^-1075 when the result is subnormal (a relative 4u for 1/w, which is above
// 2^-1024); check_cluster_range keeps H c and the other products normal. So each quantity the
// search compares is within a factor (1 +- u)^K (1 +- delta) of its exact value, K = 5p + 12: an
// edge weight (H c_ij)/w_i + (H c_ji)/w_j takes 5 roundings, a tour or path sum at most p + 2
// additions of non-negative terms, sum 1/w at most 2p roundings of 4u, Eq. 3 one more, a comm 2;
// delta = p e / W, with e = 2^-1075 times the largest number of subnormal quotients H c / w in
// an edge weight (0, 1 or 2), bounds what underflow takes from Eq. 3's numerator (at least W).
// Every set or branch the search discards has a computed bound at least its final incumbent t,
// every ring it evaluates a computed T_step at least t, and a set whose DP ring is within 2 K u
// of the set's bound is not branched on; so no ring's exact T_step is below t (1 - 3 K u - delta).
// lower_bound is t (1 - 3 K u - 2 delta) rounded down, or, where that does not prove the plan,
// the relaxation of bounds.hpp if larger; delta is 0 unless some H c / w is subnormal, and below
// 1e-15 unless W is below 1e-307 too. optimal is claimed only when the certified upper bound on
// the plan's T_step meets lower_bound (claim_optimal_if_certified, certify.hpp), else a note says
// why.
// Guarantee: optimal (per q, and over all q) within a relative 1e-9, where the shares reach the
// ring's optimum and delta is below about 1e-10.
// Limits: p <= kExactMaxProcessors, refused up front (InputError). The branch and bound has a node
// budget (kExactMaxSearchNodes for plan_exact) and the time limit; at either (a status, not an
// error), plan_exact returns the better of the search's best ring and auto's heuristic solution
// (greedy or tsp, auto.hpp), with the larger of their certified lower bounds (the search's: the
// bound of the subsets not yet searched, or its incumbent), optimal only if that bound proves it,
// and a note naming the limit. The Held-Karp DP itself is not interrupted.
// Complexity: O(2^p p^2) time and O(2^p p) memory for the DP (p = 16: 17 M relaxations, 8 MB);
// the branch and bound only on subsets whose DP ring is not tight, with pruning by the incumbent.
#pragma once

#include <cstdint>
#include <optional>

#include "redist/common/deadline.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

inline constexpr std::size_t kExactMaxProcessors = 20;
// The branch and bound is exponential when many subsets have rings saturated by communication
// (W small against H c): a 20-processor cluster with W/H = 1e-3, each ring size scanned on its
// own, ran for over 6 minutes. plan_exact stops it after this many nodes (about a minute on one
// core) and returns its best solution (above); exact_table, which needs every size's optimum,
// refuses the cluster then (InputError at $.cluster.w).
inline constexpr std::uint64_t kExactMaxSearchNodes = 200'000'000;

struct ExactTable {
  Solution best;  // optimal over all q (or the forced q)
  std::vector<std::optional<Solution>>
      by_size;  // entry q-1: optimal ring of exactly q, if computed
};

// All q in [1, p] (or only `q`), each size searched on its own (for experiments and tests).
ExactTable exact_table(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);
Solution plan_exact(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt,
                    const Deadline& time_limit = Deadline());

// plan_exact's solution within a budget of branch-and-bound nodes; `finished` is false when the
// budget or the time limit stopped the search (the solution is then the one described above).
struct ExactResult {
  Solution solution;
  bool finished = true;
};
ExactResult plan_exact_within(const Cluster& cluster, std::optional<std::size_t> q,
                              std::uint64_t max_nodes, const Deadline& time_limit = Deadline());

}  // namespace redist::slicering
