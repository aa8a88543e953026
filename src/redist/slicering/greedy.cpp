#include "redist/slicering/greedy.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The best insertion found so far: the processor, the gap it goes into (after ring[position]),
// and the T_step and tour cost of the ring it makes.
struct Insertion {
  std::size_t processor, position = 0;
  double t_step = kInfinity, tour = kInfinity;
};

// The ring grown one processor at a time (SLICE §5.2): the members in ring order, each member's
// communication time, the tour cost and the sum of 1/w over the members.
class GrowingRing {
 public:
  GrowingRing(const Cluster& cluster, std::size_t first)
      : cl_(cluster),
        p_(cluster.size()),
        ring_{first},
        comm_(p_, 0.0),
        in_ring_(p_, 0),
        inverse_(1.0 / cluster.w[first]),
        ct_(p_ * p_),
        inv_w_(p_),
        step_t_(p_),
        step_tour_(p_) {
    in_ring_[first] = 1;
    // The transpose of c (c[i][a] read as ct[a][i]) and 1/w, so that the inner loops read rows.
    for (std::size_t i = 0; i < p_; ++i) {
      inv_w_[i] = 1.0 / cluster.w[i];
      for (std::size_t j = 0; j < p_; ++j) ct_[j * p_ + i] = cluster.c[i * p_ + j];
    }
  }

  const std::vector<std::size_t>& ring() const { return ring_; }

  // The insertion of a processor outside the ring into one of its gaps with the least T_step
  // (then the least tour cost), gap by gap.
  Insertion best_insertion() {
    const auto top = largest_comms();
    Insertion best{p_};
    for (std::size_t k = 0; k < ring_.size(); ++k) score_gap(k, top, best);
    return best;
  }

  void insert(const Insertion& in) {
    const std::size_t r = ring_.size(), i = in.processor, a = ring_[in.position],
                      b = ring_[in.position + 1 == r ? 0 : in.position + 1];
    const double H = cl_.H;
    if (r == 1) {
      comm_[a] = 2.0 * H * cl_.cost(a, i);
      comm_[i] = 2.0 * H * cl_.cost(i, a);
    } else {
      comm_[a] += H * (cl_.cost(a, i) - cl_.cost(a, b));
      comm_[b] += H * (cl_.cost(b, i) - cl_.cost(b, a));
      comm_[i] = H * (cl_.cost(i, a) + cl_.cost(i, b));
    }
    ring_.insert(ring_.begin() + static_cast<std::ptrdiff_t>(in.position) + 1, i);
    in_ring_[i] = 1;
    tour_ = in.tour;
    inverse_ += 1.0 / cl_.w[i];
  }

 private:
  using Comm = std::pair<double, std::size_t>;  // (value, processor)

  // The three largest comms of the ring: the largest outside a gap's two ends is among them.
  std::array<Comm, 3> largest_comms() const {
    std::array<Comm, 3> top{{{0.0, p_}, {0.0, p_}, {0.0, p_}}};
    for (std::size_t i : ring_) {
      Comm v{comm_[i], i};
      for (auto& t : top) {
        if (v.first > t.first) std::swap(v, t);
      }
    }
    return top;
  }

  // Every processor's T_step and tour cost when inserted into gap k (a branch-free pass over
  // every processor, vectorisable), then the best of those outside the ring against `best`.
  void score_gap(std::size_t k, const std::array<Comm, 3>& top, Insertion& best) {
    const std::size_t r = ring_.size(), a = ring_[k], b = ring_[k + 1 == r ? 0 : k + 1];
    const double H = cl_.H, W = cl_.W;
    const double* ca = &cl_.c[a * p_];  // c[a][i]
    const double* cta = &ct_[a * p_];   // c[i][a]
    const double* cb = &cl_.c[b * p_];
    const double* ctb = &ct_[b * p_];
    double others = 0.0;
    for (const auto& t : top) {
      if (t.second != a && t.second != b) {
        others = t.first;
        break;
      }
    }
    const double base_tour = r == 1 ? 0.0 : tour_ - cl_.edge(a, b);
    const double base_a = r == 1 ? 0.0 : comm_[a] - H * cl_.cost(a, b);
    const double base_b = r == 1 ? 0.0 : comm_[b] - H * cl_.cost(b, a);
    const double wa = inv_w_[a], wb = inv_w_[b];
    const double twice = r == 1 ? 2.0 : 1.0;
    for (std::size_t i = 0; i < p_; ++i) {
      const double new_tour =
          base_tour + H * (ca[i] * wa + cta[i] * inv_w_[i]) + H * (cb[i] * wb + ctb[i] * inv_w_[i]);
      const double comm_a = base_a + H * ca[i] * twice;
      const double comm_b = base_b + H * cb[i] * twice;
      const double comm_i = H * (cta[i] + ctb[i]);
      const double f = (W + new_tour) / (inverse_ + inv_w_[i]);
      step_t_[i] = std::max(std::max(f, others), std::max(std::max(comm_a, comm_b), comm_i));
      step_tour_[i] = new_tour;
    }
    for (std::size_t i = 0; i < p_; ++i) {
      if (in_ring_[i]) continue;
      const double t = step_t_[i];
      // The first processor outside the ring is always a candidate, so that best names one even
      // if no time compares below infinity (check_cluster_range keeps them finite).
      if (best.processor == p_ || t < best.t_step ||
          (t == best.t_step && step_tour_[i] < best.tour)) {
        best = {i, k, t, step_tour_[i]};
      }
    }
  }

  const Cluster& cl_;
  std::size_t p_;
  std::vector<std::size_t> ring_;
  std::vector<double> comm_;  // comm of ring members, by processor
  std::vector<char> in_ring_;
  double tour_ = 0.0, inverse_;
  std::vector<double> ct_, inv_w_, step_t_, step_tour_;
};

void require_greedy_size(std::size_t p) {
  if (p > kGreedyMaxProcessors) {
    throw InputError(fmt::format("algorithm greedy handles at most {} processors, got {} (its "
                                 "p^3/6 steps would take minutes); use algorithm tsp",
                                 kGreedyMaxProcessors, p),
                     "w");
  }
}

}  // namespace

GreedyTrace greedy_trace(const Cluster& cluster, std::optional<std::size_t> q) {
  const std::size_t p = cluster.size();
  require_greedy_size(p);
  const auto first = static_cast<std::size_t>(std::min_element(cluster.w.begin(), cluster.w.end()) -
                                              cluster.w.begin());
  GrowingRing growing(cluster, first);
  GreedyTrace trace;
  trace.t_step_by_size.push_back(cluster.W * cluster.w[first]);
  std::vector<std::size_t> best_ring = growing.ring();
  double best_t = trace.t_step_by_size.back();
  for (std::size_t r = 1; r < (q ? *q : p); ++r) {
    const Insertion next = growing.best_insertion();
    growing.insert(next);
    trace.t_step_by_size.push_back(next.t_step);
    if (q ? r + 1 == *q : next.t_step < best_t) {
      best_t = next.t_step;
      best_ring = growing.ring();
    }
  }
  if (q) best_ring = growing.ring();
  trace.best = solution_for_ring(cluster, std::move(best_ring), "greedy");
  return trace;
}

Solution plan_greedy(const Cluster& cluster, std::optional<std::size_t> q) {
  return greedy_trace(cluster, q).best;
}

}  // namespace redist::slicering
