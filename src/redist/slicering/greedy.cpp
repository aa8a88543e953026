#include "redist/slicering/greedy.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering {

GreedyTrace greedy_trace(const Cluster& cluster, std::optional<std::size_t> q) {
  const std::size_t p = cluster.size();
  if (p > kGreedyMaxProcessors) {
    throw InputError(fmt::format("algorithm greedy handles at most {} processors, got {} (its "
                                 "p^3/6 steps would take minutes); use algorithm tsp",
                                 kGreedyMaxProcessors, p),
                     "w");
  }
  const std::size_t stop = q ? *q : p;
  const double H = cluster.H, W = cluster.W;
  std::size_t first = 0;
  for (std::size_t i = 1; i < p; ++i) {
    if (cluster.w[i] < cluster.w[first]) first = i;
  }
  std::vector<std::size_t> ring{first};
  std::vector<double> comm(p, 0.0);  // comm of ring members, by processor
  std::vector<char> in_ring(p, 0);
  in_ring[first] = 1;
  double tour = 0.0, inverse = 1.0 / cluster.w[first];
  GreedyTrace trace;
  // Row-major c and its transpose (c[i][a] read as ct[a][i]), and 1/w.
  const std::vector<double>& c = cluster.c;
  std::vector<double> ct(p * p), inv_w(p);
  for (std::size_t i = 0; i < p; ++i) {
    inv_w[i] = 1.0 / cluster.w[i];
    for (std::size_t j = 0; j < p; ++j) ct[j * p + i] = c[i * p + j];
  }
  trace.t_step_by_size.push_back(W * cluster.w[first]);
  std::vector<std::size_t> best_ring = ring;
  double best_t = trace.t_step_by_size.back();
  constexpr double inf = std::numeric_limits<double>::infinity();

  std::vector<double> step_t(p), step_tour(p);
  for (std::size_t r = 1; r < stop; ++r) {
    // The three largest comms of the ring (value, processor): the largest outside a gap's two
    // ends is among them.
    std::array<std::pair<double, std::size_t>, 3> top{{{0.0, p}, {0.0, p}, {0.0, p}}};
    for (std::size_t i : ring) {
      std::pair<double, std::size_t> v{comm[i], i};
      for (auto& t : top) {
        if (v.first > t.first) std::swap(v, t);
      }
    }
    double cand_t = inf, cand_tour = inf;
    std::size_t cand_i = p, cand_pos = 0;
    // Gap by gap, so that the inner loop over candidates reads rows of c and of its transpose.
    for (std::size_t k = 0; k < r; ++k) {
      const std::size_t a = ring[k], b = ring[k + 1 == r ? 0 : k + 1];
      const double* ca = &c[a * p];    // c[a][i]
      const double* cta = &ct[a * p];  // c[i][a]
      const double* cb = &c[b * p];
      const double* ctb = &ct[b * p];
      double others = 0.0;
      for (const auto& t : top) {
        if (t.second != a && t.second != b) {
          others = t.first;
          break;
        }
      }
      const double base_tour = r == 1 ? 0.0 : tour - cluster.edge(a, b);
      const double base_a = r == 1 ? 0.0 : comm[a] - H * cluster.cost(a, b);
      const double base_b = r == 1 ? 0.0 : comm[b] - H * cluster.cost(b, a);
      const double wa = inv_w[a], wb = inv_w[b];
      // Branch-free pass over every processor (vectorisable), then an argmin over the others.
      const double twice = r == 1 ? 2.0 : 1.0;
      for (std::size_t i = 0; i < p; ++i) {
        const double new_tour =
            base_tour + H * (ca[i] * wa + cta[i] * inv_w[i]) + H * (cb[i] * wb + ctb[i] * inv_w[i]);
        const double comm_a = base_a + H * ca[i] * twice;
        const double comm_b = base_b + H * cb[i] * twice;
        const double comm_i = H * (cta[i] + ctb[i]);
        const double f = (W + new_tour) / (inverse + inv_w[i]);
        step_t[i] = std::max(std::max(f, others), std::max(std::max(comm_a, comm_b), comm_i));
        step_tour[i] = new_tour;
      }
      for (std::size_t i = 0; i < p; ++i) {
        if (in_ring[i]) continue;
        const double t = step_t[i];
        // The first processor outside the ring is always a candidate, so that cand_i names one
        // even if no time compares below infinity (check_cluster_range keeps them finite).
        if (cand_i == p || t < cand_t || (t == cand_t && step_tour[i] < cand_tour)) {
          cand_t = t;
          cand_tour = step_tour[i];
          cand_i = i;
          cand_pos = k;
        }
      }
    }
    const std::size_t i = cand_i, a = ring[cand_pos],
                      b = ring[cand_pos + 1 == r ? 0 : cand_pos + 1];
    if (r == 1) {
      comm[a] = 2.0 * H * cluster.cost(a, i);
      comm[i] = 2.0 * H * cluster.cost(i, a);
    } else {
      comm[a] += H * (cluster.cost(a, i) - cluster.cost(a, b));
      comm[b] += H * (cluster.cost(b, i) - cluster.cost(b, a));
      comm[i] = H * (cluster.cost(i, a) + cluster.cost(i, b));
    }
    ring.insert(ring.begin() + static_cast<std::ptrdiff_t>(cand_pos) + 1, i);
    in_ring[i] = 1;
    tour = cand_tour;
    inverse += 1.0 / cluster.w[i];
    trace.t_step_by_size.push_back(cand_t);
    if (q ? r + 1 == *q : cand_t < best_t) {
      best_t = cand_t;
      best_ring = ring;
    }
  }
  if (q) best_ring = ring;
  trace.best = solution_for_ring(cluster, std::move(best_ring), "greedy");
  return trace;
}

Solution plan_greedy(const Cluster& cluster, std::optional<std::size_t> q) {
  return greedy_trace(cluster, q).best;
}

}  // namespace redist::slicering
