#include "redist/slicering/certify.hpp"

#include <algorithm>
#include <utility>

#include "redist/common/tolerance.hpp"

namespace redist::slicering {

namespace {

// The two capacities of ring[k] to its neighbours (the same one twice for a ring of two).
std::pair<double, double> neighbour_costs(const Cluster& cl, const std::vector<std::size_t>& ring,
                                          std::size_t k) {
  const std::size_t q = ring.size();
  const std::size_t i = ring[k];
  return {cl.cost(i, ring[(k + q - 1) % q]), cl.cost(i, ring[(k + 1) % q])};
}

}  // namespace

double comm_lower(const Cluster& cl, const std::vector<std::size_t>& ring, std::size_t k) {
  if (ring.size() < 2) return 0.0;
  const auto [before, after] = neighbour_costs(cl, ring, k);
  return down(cl.H * add_down(before, after));
}

double comm_upper(const Cluster& cl, const std::vector<std::size_t>& ring, std::size_t k) {
  if (ring.size() < 2) return 0.0;
  const auto [before, after] = neighbour_costs(cl, ring, k);
  return up(cl.H * add_up(before, after));
}

double inverse_upper(const Cluster& cl, const std::vector<std::size_t>& members) {
  double inverse = 0.0;
  for (std::size_t i : members) inverse = add_up(inverse, up(1.0 / cl.w[i]));
  return inverse;
}

double ring_t_step_lower(const Cluster& cl, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  if (q == 1) return down(cl.W * cl.w[ring[0]]);
  double tour = 0.0, max_comm = 0.0;
  for (std::size_t k = 0; k < q; ++k) {
    tour = add_down(tour, edge_lower(cl, ring[k], ring[(k + 1) % q]));
    max_comm = std::max(max_comm, comm_lower(cl, ring, k));
  }
  return std::max(eq3_lower(cl, tour, inverse_upper(cl, ring)), max_comm);
}

double t_step_upper(const Cluster& cl, const std::vector<std::size_t>& ring,
                    const std::vector<double>& alpha) {
  double total = 0.0;  // at most the exact sum of the shares
  for (double a : alpha) total = add_down(total, a);
  if (!(total > 0.0)) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const double compute = up(up(alpha[k] * up(cl.W * cl.w[ring[k]])) / total);
    worst = std::max(worst, add_up(compute, comm_upper(cl, ring, k)));
  }
  return worst;
}

void claim_optimal_if_certified(const Cluster& cluster, Solution& s, Proof proof) {
  s.drop_proof();
  if (s.lower_bound > 0.0 && at_most(t_step_upper(cluster, s.ring, s.alpha), *s.lower_bound)) {
    s.prove_optimal(proof);
  }
}

}  // namespace redist::slicering
