// The SliceRing model of SLICE §2 (docs/slicering.md): static load balancing of an iterative
// computation.
//
// p processors of cycle-times w_i (time per unit of work) and link capacities c_ij (time per unit
// of data, the inverse of a bandwidth; the diagonal is ignored). A solution is a ring of q distinct
// processors sigma_0..sigma_{q-1} and shares alpha >= 0 summing to 1; processor i of the ring
// computes alpha_i * W * w_i and exchanges H units with each neighbour, so (SLICE Eq. 1)
//   T_step = max over ring members of alpha_i W w_i + H (c[i][pred(i)] + c[i][succ(i)]),
// with no communication term when q = 1 (for q = 2 both neighbours are the other processor).
//
// Two facts every planner of this family builds on (proofs in docs/slicering.md):
//  - the ring's "tour cost" sum_i comm_i / w_i (comm_i = H (c[i][pred] + c[i][succ])) is the length
//    of a Hamiltonian cycle for the symmetric edge weight d(i,j) = H (c_ij / w_i + c_ji / w_j);
//  - with optimal shares, T_step(ring) = max(F, max_i comm_i), F = (W + tour) / sum_i 1/w_i
//    (SLICE Eq. 3 when no member is saturated by its communication alone).
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "redist/common/result.hpp"

namespace redist::slicering {

struct Cluster {
  std::vector<double> w;  // cycle-times, > 0
  std::vector<double> c;  // p x p capacities, row-major; c[i*p + i] ignored
  double W = 1.0;         // work per step, > 0
  double H = 1.0;         // data exchanged with each neighbour per step, > 0

  std::size_t size() const { return w.size(); }
  double cost(std::size_t i, std::size_t j) const { return c[i * w.size() + j]; }
  // The symmetric TSP weight of SLICE §5.1 in its corrected form: H (c_ij/w_i + c_ji/w_j), formed
  // as (H c_ij)/w_i + (H c_ji)/w_j: H c is a normal double (check_cluster_range), so a quotient
  // that underflows loses at most 2^-1075, where H times an underflowing c/w could lose H 2^-1075.
  double edge(std::size_t i, std::size_t j) const {
    return H * cost(i, j) / w[i] + H * cost(j, i) / w[j];
  }
};

// A ring and its shares, with the claims (PlanClaims): makespan is T_step (SLICE Eq. 1), the time
// of one iteration; lower_bound a proven bound for the problem solved (of the forced ring size,
// when one is forced; 0 when the algorithm proves none: greedy); optimal for that problem, and how.
struct Solution : PlanClaims {
  std::vector<std::size_t> ring;  // processors in ring order
  std::vector<double> alpha;      // share of ring[k]
  // tsp only: the ring's tour cost, a lower bound on every Hamiltonian tour (Held-Karp 1-tree).
  std::optional<double> tour_cost, tour_lower_bound;
};

// The largest number of processors any SliceRing command accepts: c alone is p^2 doubles (128 MB at
// this size, plus the JSON text and its parse tree); each algorithm may set a smaller limit.
inline constexpr std::size_t kMaxProcessors = 4'000;

// Every time the planners and the validator form (W w_i, H c_ij, a ring's comm, W + tour, F) stays
// at or below this, a margin of 16 under the largest double, so that their sums stay finite.
inline constexpr double kMaxTime = std::numeric_limits<double>::max() / 16;

// Refuses, with an InputError naming the field, a cluster on which some time of the model would
// overflow a double or underflow below the smallest normal double (2.2e-308), so that every
// planner and the validator compute finite, non-zero times:
//  - W w_i in [2.2e-308, kMaxTime] for every i (the sequential time on processor i)
//    ($.cluster.w[i]);
//  - sum_i 1/w_i <= kMaxTime ($.cluster.w[i], i where the running sum first exceeds it);
//  - W / sum_i 1/w_i >= 2.2e-308: the smallest conceivable T_step ($.cluster.W);
//  - c_ij and c_ij / w_i <= kMaxTime (sums of two of them are formed before the factor H),
//    2 H c_ij <= kMaxTime and H c_ij >= 2.2e-308 for i != j ($.cluster.c[i][j]);
//  - W + 2 p H c_ij / w_i <= kMaxTime: bounds every ring's tour cost sum_i comm_i / w_i
//    ($.cluster.c[i][j]).
// Also refuses p > kMaxProcessors ($.cluster.w). O(p^2).
void check_cluster_range(const Cluster& cluster);

// comm of ring[k]: H (c[i][pred] + c[i][succ]); 0 when the ring has one processor.
double ring_comm(const Cluster& cluster, const std::vector<std::size_t>& ring, std::size_t k);
// sum over ring edges of edge(): the ring's tour cost (0 for one processor, 2 edge() for two).
double ring_tour_cost(const Cluster& cluster, const std::vector<std::size_t>& ring);

}  // namespace redist::slicering
