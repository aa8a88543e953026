#include "redist/slicering/bounds.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "redist/slicering/certify.hpp"

namespace redist::slicering {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// At most m_i = H (c1_i + c2_i), the least comm of processor i in any ring of three or more
// (p >= 3).
std::vector<double> cheapest_comms_lower(const Cluster& cl) {
  const std::size_t p = cl.size();
  std::vector<double> m(p);
  for (std::size_t i = 0; i < p; ++i) {
    double a = kInf, b = kInf;
    for (std::size_t j = 0; j < p; ++j) {
      if (j == i) continue;
      const double c = cl.cost(i, j);
      if (c < a)
        b = a, a = c;
      else if (c < b)
        b = c;
    }
    m[i] = down(cl.H * add_down(a, b));
  }
  return m;
}

// At most h(lambda) of the header, W + the least sum of (m_i - lambda)/w_i over sets of a..b
// processors, for lower bounds m_i: each term is rounded down, so the least sum of the rounded
// terms (the a smallest, then every negative one) is at most the exact least sum.
double dinkelbach_lower(const Cluster& cl, const std::vector<double>& m, double lambda,
                        std::size_t a, std::size_t b, std::vector<double>& terms) {
  for (std::size_t i = 0; i < m.size(); ++i) terms[i] = down(add_down(m[i], -lambda) / cl.w[i]);
  std::sort(terms.begin(), terms.end());
  double sum = cl.W;
  for (std::size_t k = 0; k < b && (k < a || terms[k] < 0); ++k) sum = add_down(sum, terms[k]);
  return sum;
}

// At most the best T_step of a ring of two processors: ring_t_step_lower of every pair, with the
// upper bounds on 1/w_i formed once. A pair whose communication 2 H c, or Eq. 3 without its tour
// W / (1/w_i + 1/w_j), is already at least the best bound so far is passed over: its T_step is
// at least that. O(p^2).
double pair_lower(const Cluster& cl) {
  const std::size_t p = cl.size();
  std::vector<double> inverse(p);
  for (std::size_t i = 0; i < p; ++i) inverse[i] = up(1.0 / cl.w[i]);
  double best = kInf;
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = i + 1; j < p; ++j) {
      const double dearer = std::max(cl.cost(i, j), cl.cost(j, i));
      const double comm = down(cl.H * add_down(dearer, dearer));
      const double pair_inverse = add_up(inverse[i], inverse[j]);
      if (comm >= best || down(cl.W / pair_inverse) >= best) continue;
      const double edge = edge_lower(cl, i, j);
      best = std::min(best, std::max(eq3_lower(cl, add_down(edge, edge), pair_inverse), comm));
    }
  }
  return best;
}

}  // namespace

double cheapest_links_bound(const Cluster& cl, std::size_t a, std::size_t b) {
  const std::size_t p = cl.size();
  if (a < 3 || a > b || b > p) throw std::logic_error("cheapest_links_bound: bad size range");
  const std::vector<double> m = cheapest_comms_lower(cl);
  std::vector<double> sorted = m, terms(p);
  std::sort(sorted.begin(), sorted.end());
  // hi: the ratio of the a processors of smallest m, a feasible set (h(hi) <= 0, up to rounding:
  // hi only steers); lo = 0, or a lambda with certified h(lambda) > 0: always a lower bound.
  double lo = 0.0, num = cl.W, den = 0.0;
  std::vector<std::size_t> order(p);
  for (std::size_t i = 0; i < p; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto x, auto y) { return m[x] < m[y]; });
  for (std::size_t k = 0; k < a; ++k)
    num += m[order[k]] / cl.w[order[k]], den += 1 / cl.w[order[k]];
  double hi = num / den;
  for (int step = 0; step < kBisectionSteps && hi - lo > kBisectionPrecision * hi; ++step) {
    const double mid = lo + (hi - lo) / 2;
    (dinkelbach_lower(cl, m, mid, a, b, terms) > 0 ? lo : hi) = mid;
  }
  return std::max(lo, sorted[a - 1]);
}

double ring_size_bound(const Cluster& cl, std::optional<std::size_t> q,
                       std::optional<double> full_ring_bound) {
  const std::size_t p = cl.size();
  const std::size_t a = q ? *q : 1, b = q ? *q : p;
  double bound = kInf;
  if (a == 1) bound = down(cl.W * *std::min_element(cl.w.begin(), cl.w.end()));
  if (a <= 2 && b >= 2) bound = std::min(bound, pair_lower(cl));
  const std::size_t a3 = std::max<std::size_t>(a, 3);
  if (a3 > b) return bound;
  // Rings of all p processors: also the full-ring bound, when given.
  const std::size_t below_full = full_ring_bound && b == p ? p - 1 : b;
  if (a3 <= below_full) bound = std::min(bound, cheapest_links_bound(cl, a3, below_full));
  if (below_full < b) {
    bound = std::min(bound, std::max(cheapest_links_bound(cl, p, p), *full_ring_bound));
  }
  return bound;
}

}  // namespace redist::slicering
