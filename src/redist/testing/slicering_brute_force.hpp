// An independent reference for SliceRing claims under rounding (test support): the optimum over
// every ring, in long double.
//
// Every ring (first member fixed, the others permuted) is evaluated with the closed form of its
// optimum over shares, max((W + sum_i comm_i / w_i) / sum_i 1/w_i, max_i comm_i) (model.hpp,
// fact 2), in long double. Where long double has at least 64 significant bits and an exponent range
// that no product or quotient of three doubles leaves (x86-64's 80-bit format, or binary128),
// every value is within a relative (2q + 8) 2^-64 < 1e-17 of the exact one for q <= 8, with no
// underflow or overflow, whatever the doubles' magnitudes: so a double bound one rounding unit
// (1.1e-16) above the exact optimum is caught. Shares no code with the planners. p <= 8.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "redist/slicering/model.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering::testing {

// True where long double meets the precision and range the reference needs.
inline constexpr bool kLongDoubleReferenceExact =
    std::numeric_limits<long double>::digits >= 64 &&
    std::numeric_limits<long double>::max_exponent >= 4 * std::numeric_limits<double>::max_exponent;

// The reference's relative accuracy (see above), with a margin.
inline constexpr long double kReferenceAccuracy = 1e-17L;

// The ring's optimum over its shares, and its tour cost sum_i comm_i / w_i.
struct RingValue {
  long double t_step, tour;
};

inline RingValue ring_value(const Cluster& cl, const std::vector<std::size_t>& ring) {
  const std::size_t q = ring.size();
  const long double W = cl.W, H = cl.H;
  if (q == 1) return {W * static_cast<long double>(cl.w[ring[0]]), 0.0L};
  long double inverse = 0, tour = 0, max_comm = 0;
  for (std::size_t k = 0; k < q; ++k) {
    const std::size_t i = ring[k];
    const long double comm = H * (static_cast<long double>(cl.cost(i, ring[(k + q - 1) % q])) +
                                  static_cast<long double>(cl.cost(i, ring[(k + 1) % q])));
    const long double w = cl.w[i];
    inverse += 1.0L / w;
    tour += comm / w;
    max_comm = std::max(max_comm, comm);
  }
  return {std::max((W + tour) / inverse, max_comm), tour};
}

// Calls visit(ring) for every ring of the processors in `set` (a bit mask).
template <class Visit>
void for_each_ring(const Cluster& cl, unsigned set, Visit&& visit) {
  std::vector<std::size_t> ring;
  for (std::size_t i = 0; i < cl.size(); ++i) {
    if (set >> i & 1u) ring.push_back(i);
  }
  do {
    visit(ring);
  } while (std::next_permutation(ring.begin() + 1, ring.end()));
}

// The optimum over every ring (of q processors when given).
inline long double reference_optimum(const Cluster& cl, std::optional<std::size_t> q) {
  long double best = std::numeric_limits<long double>::infinity();
  for (unsigned set = 1; set < (1u << cl.size()); ++set) {
    if (q && static_cast<std::size_t>(std::popcount(set)) != *q) continue;
    for_each_ring(cl, set, [&](const std::vector<std::size_t>& r) {
      best = std::min(best, ring_value(cl, r).t_step);
    });
  }
  return best;
}

// The shortest tour cost over rings of all p processors.
inline long double reference_shortest_tour(const Cluster& cl) {
  long double best = std::numeric_limits<long double>::infinity();
  for_each_ring(cl, (1u << cl.size()) - 1, [&](const std::vector<std::size_t>& r) {
    best = std::min(best, ring_value(cl, r).tour);
  });
  return best;
}

// The optimum by enumerating every ring (p <= 9), over all q or a forced q, each ring's shares by
// the planners' optimal_shares (double precision): the reference of the exact search's tests.
inline double brute_force_t_step(const Cluster& cluster,
                                 std::optional<std::size_t> q = std::nullopt) {
  const std::size_t p = cluster.size();
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t set = 1; set < (std::size_t{1} << p); ++set) {
    if (q && static_cast<std::size_t>(std::popcount(set)) != *q) continue;
    std::vector<std::size_t> ring;
    for (std::size_t i = 0; i < p; ++i) {
      if (set >> i & 1) ring.push_back(i);
    }
    // Every ring: fix the first member, permute the rest.
    do {
      best = std::min(best, optimal_shares(cluster, ring).makespan);
    } while (std::next_permutation(ring.begin() + 1, ring.end()));
  }
  return best;
}

}  // namespace redist::slicering::testing
