#include "redist/slicering/bounds.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace redist::slicering {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// m_i = H (c1_i + c2_i): the least comm of processor i in any ring of three or more (p >= 3).
std::vector<double> cheapest_comms(const Cluster& cl) {
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
    m[i] = cl.H * (a + b);
  }
  return m;
}

// h(lambda) of the header: W + the least sum of (m_i - lambda)/w_i over sets of a..b processors.
double dinkelbach(const Cluster& cl, const std::vector<double>& m, double lambda, std::size_t a,
                  std::size_t b, std::vector<double>& terms) {
  for (std::size_t i = 0; i < m.size(); ++i) terms[i] = (m[i] - lambda) / cl.w[i];
  std::sort(terms.begin(), terms.end());
  double sum = cl.W;
  for (std::size_t k = 0; k < b && (k < a || terms[k] < 0); ++k) sum += terms[k];
  return sum;
}

}  // namespace

std::pair<std::vector<std::size_t>, double> best_pair(const Cluster& cl) {
  const std::size_t p = cl.size();
  if (p < 2) throw std::logic_error("best_pair needs two processors");
  std::pair<std::vector<std::size_t>, double> best{{0, 1}, kInf};
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = i + 1; j < p; ++j) {
      const double f = (cl.W + 2.0 * cl.edge(i, j)) / (1.0 / cl.w[i] + 1.0 / cl.w[j]);
      const double t = std::max({f, 2.0 * cl.H * cl.cost(i, j), 2.0 * cl.H * cl.cost(j, i)});
      if (t < best.second) best = {{i, j}, t};
    }
  }
  return best;
}

double cheapest_links_bound(const Cluster& cl, std::size_t a, std::size_t b) {
  const std::size_t p = cl.size();
  if (a < 3 || a > b || b > p) throw std::logic_error("cheapest_links_bound: bad size range");
  const std::vector<double> m = cheapest_comms(cl);
  std::vector<double> sorted = m, terms(p);
  std::sort(sorted.begin(), sorted.end());
  // hi: the ratio of the a processors of smallest m, a feasible set (h(hi) <= 0); lo = 0 (h > 0).
  double lo = 0.0, num = cl.W, den = 0.0;
  std::vector<std::size_t> order(p);
  for (std::size_t i = 0; i < p; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto x, auto y) { return m[x] < m[y]; });
  for (std::size_t k = 0; k < a; ++k)
    num += m[order[k]] / cl.w[order[k]], den += 1 / cl.w[order[k]];
  double hi = num / den;
  for (int step = 0; step < kBisectionSteps && hi - lo > kBisectionPrecision * hi; ++step) {
    const double mid = lo + (hi - lo) / 2;
    (dinkelbach(cl, m, mid, a, b, terms) > 0 ? lo : hi) = mid;
  }
  return std::max(lo, sorted[a - 1]);
}

double ring_size_bound(const Cluster& cl, std::optional<std::size_t> q,
                       std::optional<double> full_ring_bound) {
  const std::size_t p = cl.size();
  const std::size_t a = q ? *q : 1, b = q ? *q : p;
  double bound = kInf;
  if (a == 1) bound = cl.W * *std::min_element(cl.w.begin(), cl.w.end());
  if (a <= 2 && b >= 2) bound = std::min(bound, best_pair(cl).second);
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
