#include "redist/slicering/shares.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace redist::slicering {

namespace {

// Makes the shares sum to 1. The fastest active member (smallest w among the first `active` of
// `order`) takes what the others leave, 1 - the sum of theirs, rather than every share being
// divided by the total: its share is (T - comm) / (W w), where a tiny w turns the rounding of
// T - comm into a large error (w = 1e-100 next to comms of 2 and 4: T - comm rounds to 0, its
// share vanished, and dividing by the others' 0.02 gave the slow member everything, T_step 102
// instead of 4). An error in the fastest member's share costs it little time (the share times
// W w), and the others keep their own accuracy. When the others already exceed 1 (rounding),
// every share is divided by the total.
void settle_shares(const Cluster& cluster, const std::vector<std::size_t>& ring,
                   const std::vector<std::size_t>& order, std::size_t active,
                   std::vector<double>& alpha) {
  std::size_t fastest = order[0];
  for (std::size_t m = 1; m < active; ++m) {
    if (cluster.w[ring[order[m]]] < cluster.w[ring[fastest]]) fastest = order[m];
  }
  double others = 0.0;
  for (std::size_t k = 0; k < alpha.size(); ++k) others += k == fastest ? 0.0 : alpha[k];
  if (others <= 1.0) {
    alpha[fastest] = 1.0 - others;
    return;
  }
  const double total = others + alpha[fastest];
  for (double& x : alpha) x /= total;
}

}  // namespace

Shares optimal_shares(const Cluster& cluster, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  Shares out;
  out.alpha.assign(q, 0.0);
  std::vector<double> comm(q);
  for (std::size_t k = 0; k < q; ++k) comm[k] = ring_comm(cluster, ring, k);
  std::vector<std::size_t> order(q);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return comm[a] < comm[b]; });
  // Water-filling: with the m smallest comms active, T = (W + sum comm/w) / sum 1/w. T is kept as
  // base + D, base the smallest comm and D = (W + sum (comm - base)/w) / sum 1/w, a sum of
  // non-negative terms: T - comm_k = D - (comm_k - base) then stays exact where the comms dwarf
  // the work (T - comm computed directly would round to 0 for every member). W stays out of the
  // sums: 1/(W w) could overflow where 1/w and W w do not.
  const double base = comm[order[0]];
  double a = 0.0, b = 0.0, above = 0.0;
  std::size_t active = 0;
  for (std::size_t m = 0; m < q; ++m) {
    const std::size_t k = order[m];
    const double speed = 1.0 / cluster.w[ring[k]];
    a += speed;
    b += (comm[k] - base) * speed;
    above = (cluster.W + b) / a;
    active = m + 1;
    if (m + 1 == q || above <= comm[order[m + 1]] - base) break;
  }
  // The member of smallest comm gets above / (W w) > 0, so the total is positive...
  double total = 0.0;
  for (std::size_t m = 0; m < active; ++m) {
    const std::size_t k = order[m];
    out.alpha[k] = std::max(0.0, (above - (comm[k] - base)) / (cluster.W * cluster.w[ring[k]]));
    total += out.alpha[k];
  }
  // ...unless that share underflows while every other member's T - comm_k cancels (a processor
  // of w = 1e-128 whose comm exceeds the smallest one by 1e-41 has T - comm_k = 1e-128, lost
  // next to 1e-41). The shares then come from T - comm_k = (W + sum_j (comm_j - comm_k) / w_j)
  // / sum_j 1/w_j, which subtracts comms only, in O(active^2).
  if (!(total > 0) || !std::isfinite(total)) {
    total = 0.0;
    for (std::size_t m = 0; m < active; ++m) {
      const std::size_t k = order[m];
      double spread = 0.0;
      for (std::size_t n = 0; n < active; ++n) {
        spread += (comm[order[n]] - comm[k]) / cluster.w[ring[order[n]]];
      }
      const double slack = std::max(0.0, (cluster.W + spread) / a);
      out.alpha[k] = slack / cluster.W / cluster.w[ring[k]];
      total += out.alpha[k];
    }
  }
  settle_shares(cluster, ring, order, active, out.alpha);
  double t = 0.0;
  for (std::size_t k = 0; k < q; ++k) {
    t = std::max(t, out.alpha[k] * (cluster.W * cluster.w[ring[k]]) + comm[k]);
  }
  out.makespan = t;
  return out;
}

double ring_t_step(const Cluster& cluster, const std::vector<std::size_t>& ring) {
  double inverse = 0.0, max_comm = 0.0;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    inverse += 1.0 / cluster.w[ring[k]];
    max_comm = std::max(max_comm, ring_comm(cluster, ring, k));
  }
  return std::max((cluster.W + ring_tour_cost(cluster, ring)) / inverse, max_comm);
}

Solution solution_for_ring(const Cluster& cluster, std::vector<std::size_t> ring,
                           std::string algorithm) {
  Solution s;
  s.algorithm = std::move(algorithm);
  Shares shares = optimal_shares(cluster, ring);
  s.ring = std::move(ring);
  s.alpha = std::move(shares.alpha);
  s.makespan = shares.makespan;
  return s;
}

}  // namespace redist::slicering
