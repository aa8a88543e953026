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
//  2. subsets are scanned by increasing LB(S) (per q), evaluating the DP's ring exactly and
//     stopping once LB(S) >= the incumbent; when that ring has a member whose communication alone
//     exceeds F (LB not attained), a depth-first branch and bound over the rings of S, bounded by
//     max(partial path + exact DP completion, comms already fixed), finds S's best ring.
// Guarantee: optimal (per q, and over all q); with a time limit that passes during the branch and
// bound, plan_exact returns auto's heuristic solution instead (greedy or tsp, with its proven
// lower bound, auto.hpp) and a note (the Held-Karp DP itself is not interrupted). Complexity: O(2^p
// p^2) time and O(2^p p) memory for the DP (p = 16: 17 M relaxations, 8 MB); the branch and bound
// only on subsets whose DP ring is not tight, with pruning by the incumbent. Refuses p >
// kExactMaxProcessors (InputError).
#pragma once

#include <cstdint>
#include <optional>

#include "redist/common/deadline.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

inline constexpr std::size_t kExactMaxProcessors = 20;
// The branch and bound is exponential when many subsets have rings saturated by communication
// (W small against H c): a 20-processor cluster with W/H = 1e-3 ran for over 6 minutes. It stops
// with an InputError at $.cluster.w after this many nodes (about a minute on one core).
inline constexpr std::uint64_t kExactMaxSearchNodes = 200'000'000;

struct ExactTable {
  Solution best;  // optimal over all q (or the forced q)
  std::vector<std::optional<Solution>>
      by_size;  // entry q-1: optimal ring of exactly q, if computed
};

// All q in [1, p] (or only `q`).
ExactTable exact_table(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);
Solution plan_exact(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt,
                    const Deadline& time_limit = Deadline());
// The same within a budget of branch-and-bound nodes and a time limit: nullopt when the search
// needs more (the Held-Karp DP itself always completes). InputError above kExactMaxProcessors.
std::optional<ExactTable> exact_table_within(const Cluster& cluster, std::optional<std::size_t> q,
                                             std::uint64_t max_nodes,
                                             const Deadline& time_limit = Deadline());

// Reference for tests: the optimum by enumerating every ring (p <= 9), over all q or a forced q.
double brute_force_t_step(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);

}  // namespace redist::slicering
