#include "redist/slicering/model.hpp"

#include <cmath>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::slicering {

namespace {

constexpr double kMinTime = std::numeric_limits<double>::min();  // smallest normal double

std::string w_path(std::size_t i) { return fmt::format("w[{}]", i); }
std::string c_path(std::size_t i, std::size_t j) { return fmt::format("c[{}][{}]", i, j); }

// W w_i and sum 1/w_i.
void check_cycle_times(const Cluster& cl) {
  double inverse = 0.0;
  for (std::size_t i = 0; i < cl.size(); ++i) {
    const double sequential = cl.W * cl.w[i];
    if (!(sequential <= kMaxTime)) {
      throw InputError(fmt::format("W x w[{}] = {:g} x {:g} overflows a double (limit {:g}); scale "
                                   "W or the cycle-times down",
                                   i, cl.W, cl.w[i], kMaxTime),
                       w_path(i));
    }
    if (!(sequential >= kMinTime)) {
      throw InputError(fmt::format("W x w[{}] = {:g} x {:g} underflows a double (below {:g}); "
                                   "scale W or the cycle-times up",
                                   i, cl.W, cl.w[i], kMinTime),
                       w_path(i));
    }
    inverse += 1.0 / cl.w[i];
    if (!(inverse <= kMaxTime)) {
      throw InputError(fmt::format("the sum of 1/w up to w[{}] overflows a double (limit {:g}); "
                                   "scale the cycle-times up (and W down)",
                                   i, kMaxTime),
                       w_path(i));
    }
  }
  if (!(cl.W / inverse >= kMinTime)) {
    throw InputError(fmt::format("W / sum 1/w = {:g} / {:g} (the smallest possible T_step) "
                                 "underflows a double; scale W or the cycle-times up",
                                 cl.W, inverse),
                     "W");
  }
}

// H c_ij, and the tour cost bound W + 2 p H c_ij / w_i.
void check_capacities(const Cluster& cl) {
  const std::size_t p = cl.size();
  const double two_p = 2.0 * static_cast<double>(p);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i == j) continue;
      const double c = cl.cost(i, j);
      // Some sums add two capacities (or two c / w) before multiplying by H.
      if (!(c <= kMaxTime && c / cl.w[i] <= kMaxTime)) {
        throw InputError(fmt::format("c = {:g} (or c / w[{}] = {:g} / {:g}) is above {:g}: sums "
                                     "of two would overflow a double; scale c down (and H up)",
                                     c, i, c, cl.w[i], kMaxTime),
                         c_path(i, j));
      }
      if (!(2.0 * cl.H * c <= kMaxTime)) {
        throw InputError(fmt::format("2 x H x c = 2 x {:g} x {:g} (a communication time) "
                                     "overflows a double (limit {:g}); scale H or c down",
                                     cl.H, c, kMaxTime),
                         c_path(i, j));
      }
      if (!(cl.H * c >= kMinTime)) {
        throw InputError(fmt::format("H x c = {:g} x {:g} underflows a double (below {:g}); "
                                     "scale H or c up",
                                     cl.H, c, kMinTime),
                         c_path(i, j));
      }
      const double tour = cl.W + two_p * (cl.H * (c / cl.w[i]));
      if (!(tour <= kMaxTime)) {
        throw InputError(fmt::format("W + 2 p H c / w[{}] = {:g} + 2 x {} x {:g} x {:g} / {:g} "
                                     "(a bound on ring tour costs) overflows a double (limit "
                                     "{:g}); scale c or H down, or the cycle-times up",
                                     i, cl.W, p, cl.H, c, cl.w[i], kMaxTime),
                         c_path(i, j));
      }
    }
  }
}

}  // namespace

void check_cluster_range(const Cluster& cluster) {
  if (cluster.size() > kMaxProcessors) {
    throw InputError(fmt::format("at most {} processors, got {} (c alone would take {:.1f} GB); "
                                 "split the cluster",
                                 kMaxProcessors, cluster.size(),
                                 8e-9 * static_cast<double>(cluster.size()) *
                                     static_cast<double>(cluster.size())),
                     "w");
  }
  check_cycle_times(cluster);
  check_capacities(cluster);
}

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
