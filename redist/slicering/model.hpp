// The SliceRing model of SLICE §2 (SPEC §5): static load balancing of an iterative computation.
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
#include <optional>
#include <string>
#include <vector>

namespace redist::slicering {

struct Cluster {
  std::vector<double> w;  // cycle-times, > 0
  std::vector<double> c;  // p x p capacities, row-major; c[i*p + i] ignored
  double W = 1.0;         // work per step, > 0
  double H = 1.0;         // data exchanged with each neighbour per step, > 0

  std::size_t size() const { return w.size(); }
  double cost(std::size_t i, std::size_t j) const { return c[i * w.size() + j]; }
  // The symmetric TSP weight of SLICE §5.1 in its corrected form: H (c_ij/w_i + c_ji/w_j).
  double edge(std::size_t i, std::size_t j) const {
    return H * (cost(i, j) / w[i] + cost(j, i) / w[j]);
  }
};

struct Solution {
  std::string algorithm;
  std::vector<std::size_t> ring;  // processors in ring order
  std::vector<double> alpha;      // share of ring[k]
  double t_step = 0.0;
  std::optional<double> lower_bound;  // a proven lower bound for the problem solved
  bool optimal = false;               // proven optimal for the problem solved (given q, if forced)
  // tsp only: the ring's tour cost, a lower bound on every Hamiltonian tour (Held-Karp 1-tree).
  std::optional<double> tour_cost, tour_lower_bound;
  std::vector<std::string> notes;
};

// comm of ring[k]: H (c[i][pred] + c[i][succ]); 0 when the ring has one processor.
double ring_comm(const Cluster& cluster, const std::vector<std::size_t>& ring, std::size_t k);
// sum over ring edges of edge(): the ring's tour cost (0 for one processor, 2 edge() for two).
double ring_tour_cost(const Cluster& cluster, const std::vector<std::size_t>& ring);

}  // namespace redist::slicering
