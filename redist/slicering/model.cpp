#include "redist/slicering/model.hpp"

namespace redist::slicering {

double ring_comm(const Cluster& cluster, const std::vector<std::size_t>& ring, std::size_t k) {
  const std::size_t q = ring.size();
  if (q < 2) return 0.0;
  const std::size_t i = ring[k];
  const std::size_t pred = ring[(k + q - 1) % q];
  const std::size_t succ = ring[(k + 1) % q];
  return cluster.H * (cluster.cost(i, pred) + cluster.cost(i, succ));
}

double ring_tour_cost(const Cluster& cluster, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  if (q < 2) return 0.0;
  double total = 0.0;
  for (std::size_t k = 0; k < q; ++k) total += cluster.edge(ring[k], ring[(k + 1) % q]);
  return total;
}

}  // namespace redist::slicering
