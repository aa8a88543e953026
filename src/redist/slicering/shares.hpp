// Optimal shares for a given ring (SLICE §5.1, Eq. 2-3, extended to saturated processors).
//
// Equalising finishing times gives alpha_i = (T - comm_i) / (W w_i) (Eq. 2) and, summing to 1,
// T = (W + sum comm_i/w_i) / sum 1/w_i (Eq. 3). When a processor's communication alone exceeds
// that common time, Eq. 2 would give it a negative share: it gets alpha = 0 and still pays its
// communication. The shares are then found by water-filling: T is the unique level with
// sum_i max(0, T - comm_i) / (W w_i) = 1, and T_step = max(T, max_i comm_i) = max(F, max comm)
// with F the Eq. 3 value (see model.hpp). No other shares do better: every member pays its comm,
// and below level T the shares cannot sum to 1.
// Complexity: O(q log q).
#pragma once

#include "redist/slicering/model.hpp"

namespace redist::slicering {

struct Shares {
  std::vector<double> alpha;  // one per ring member, >= 0, summing to 1
  double makespan = 0.0;      // T_step (SLICE Eq. 1): the time of one iteration
};

// Requires a non-empty ring of distinct processors of the cluster.
Shares optimal_shares(const Cluster& cluster, const std::vector<std::size_t>& ring);

// T_step of a ring with optimal shares in closed form: max((W + tour)/sum 1/w, max comm).
double ring_t_step(const Cluster& cluster, const std::vector<std::size_t>& ring);

// A Solution for `ring` with optimal shares (algorithm name given, no bound, not optimal).
Solution solution_for_ring(const Cluster& cluster, std::vector<std::size_t> ring,
                           std::string algorithm);

}  // namespace redist::slicering
