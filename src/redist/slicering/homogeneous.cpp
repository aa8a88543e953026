#include "redist/slicering/homogeneous.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "redist/common/error.hpp"
#include "redist/slicering/certify.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering {

bool is_homogeneous_network(const Cluster& cluster) {
  const std::size_t p = cluster.size();
  if (p < 2) return true;
  const double c = cluster.cost(0, 1);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i != j && cluster.cost(i, j) != c) return false;
    }
  }
  return true;
}

Solution plan_homogeneous(const Cluster& cluster, std::optional<std::size_t> q) {
  if (!is_homogeneous_network(cluster)) {
    throw InputError("algorithm homogeneous needs every off-diagonal c equal (SLICE §3)", "c");
  }
  const std::size_t p = cluster.size();
  std::vector<std::size_t> order(p);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return cluster.w[a] < cluster.w[b]; });
  const double c = p >= 2 ? cluster.cost(0, 1) : 0.0;
  std::size_t best = 1;
  // The sizes Proposition 1 leaves: q, or the fastest alone and everybody.
  std::vector<std::size_t> candidates{q ? *q : 1};
  if (q) {
    best = *q;
  } else if (p >= 2) {
    double inverse = 0.0;
    for (double w : cluster.w) inverse += 1.0 / w;
    const double all = cluster.W / inverse + 2.0 * cluster.H * c;
    if (all < cluster.W * cluster.w[order[0]]) best = p;
    candidates.push_back(p);
  }
  // SLICE Proposition 1 proves the best candidate ring optimal; the lower bound is the least of
  // their optima rounded down (certify.hpp), since rounding may have picked the other one. The
  // claim stands when the computed shares reach it (they may not, by rounding, when cycle-times
  // span hundreds of magnitudes).
  double bound = std::numeric_limits<double>::infinity();
  for (std::size_t size : candidates) {
    const std::vector<std::size_t> fastest(order.begin(),
                                           order.begin() + static_cast<std::ptrdiff_t>(size));
    bound = std::min(bound, ring_t_step_lower(cluster, fastest));
  }
  std::vector<std::size_t> ring(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best));
  Solution s = solution_for_ring(cluster, std::move(ring), "homogeneous");
  s.lower_bound = std::min(bound, s.makespan);
  claim_optimal_if_certified(cluster, s, Proof::theorem);
  return s;
}

}  // namespace redist::slicering
