#include "redist/slicering/homogeneous.hpp"

#include <algorithm>
#include <numeric>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
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
  if (q) {
    best = *q;
  } else if (p >= 2) {
    // Proposition 1: the fastest alone, or everybody.
    double inverse = 0.0;
    for (double w : cluster.w) inverse += 1.0 / w;
    const double all = cluster.W / inverse + 2.0 * cluster.H * c;
    if (all < cluster.W * cluster.w[order[0]]) best = p;
  }
  std::vector<std::size_t> ring(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best));
  const double optimum = ring_t_step(cluster, ring);  // the closed form of the ring's optimum
  Solution s = solution_for_ring(cluster, std::move(ring), "homogeneous");
  // SLICE Proposition 1 proves the ring optimal; the claim stands when the computed shares reach
  // its closed form (they may not, by rounding, when cycle-times span hundreds of magnitudes).
  s.lower_bound = std::min(optimum, s.makespan);
  if (at_most(s.makespan, optimum)) {
    s.lower_bound = s.makespan;
    s.prove_optimal(Proof::theorem);
  }
  return s;
}

}  // namespace redist::slicering
