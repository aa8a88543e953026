#include "redist/slicering/tsp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/slicering/bounds.hpp"
#include "redist/slicering/certify.hpp"
#include "redist/slicering/shares.hpp"

namespace redist::slicering {

namespace {

// A move is applied when it shortens the tour by more than kRelativeGain times the length of the
// edges it removes: relative, so that rounding at any magnitude (1e-300 or 1e300) can never make
// a cycle of "improving" moves.
constexpr double kRelativeGain = kSearchResolution;

// Iterated local search above kLocalKicksFrom cities: kLocalKicks double bridges whose cuts lie
// within 2 kKickWindow consecutive positions of the tour.
constexpr std::size_t kLocalKicksFrom = 2000;
constexpr std::size_t kLocalKicks = 20000;
constexpr std::size_t kKickWindow = 50;

double tour_length(const std::vector<double>& d, std::size_t n, const std::vector<std::size_t>& t) {
  double total = 0.0;
  for (std::size_t k = 0; k < n; ++k) total += d[t[k] * n + t[(k + 1) % n]];
  return total;
}

class LocalSearch {
 public:
  LocalSearch(const std::vector<double>& d, std::size_t n) : d_(d), n_(n) {
    const std::size_t k = std::min<std::size_t>(10, n - 1);
    neighbours_.resize(n * k);
    k_ = k;
    std::vector<std::size_t> others(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::iota(others.begin(), others.end(), 0);
      std::swap(others[i], others[n - 1]);
      auto by = [&](std::size_t a, std::size_t b) { return dist(i, a) < dist(i, b); };
      std::partial_sort(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(k),
                        others.end() - 1, by);
      std::copy(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(k),
                neighbours_.begin() + static_cast<std::ptrdiff_t>(i * k));
    }
  }

  double dist(std::size_t a, std::size_t b) const { return d_[a * n_ + b]; }

  std::vector<std::size_t> nearest_neighbour() const {
    std::vector<std::size_t> tour{0};
    std::vector<char> used(n_, 0);
    used[0] = 1;
    while (tour.size() < n_) {
      const std::size_t a = tour.back();
      std::size_t next = n_;
      for (std::size_t m = 0; m < k_; ++m) {
        const std::size_t c = neighbours_[a * k_ + m];
        if (!used[c]) {
          next = c;
          break;
        }
      }
      if (next == n_) {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < n_; ++c) {
          if (!used[c] && dist(a, c) < best) best = dist(a, c), next = c;
        }
      }
      used[next] = 1;
      tour.push_back(next);
    }
    return tour;
  }

  // Improves `tour` in place until no 2-opt or Or-opt move of the neighbour lists applies.
  void optimise(std::vector<std::size_t>& tour, std::vector<char>* dirty_only = nullptr) {
    tour_ = std::move(tour);
    pos_.assign(n_, 0);
    for (std::size_t k = 0; k < n_; ++k) pos_[tour_[k]] = k;
    std::vector<std::size_t> queue;
    active_.assign(n_, 0);
    for (std::size_t c = 0; c < n_; ++c) {
      if (!dirty_only || (*dirty_only)[c]) push(queue, c);
    }
    improve(queue);
    tour = std::move(tour_);
  }

  // 2-opt and Or-opt moves from the cities of `queue` until none shortens the tour. Every applied
  // move shortens it; the cap only guards against a pathological run.
  void improve(std::vector<std::size_t>& queue) {
    std::size_t moves_left = 1000 * n_ + 100'000;
    while (!queue.empty() && moves_left > 0) {
      const std::size_t a = queue.back();
      queue.pop_back();
      active_[a] = 0;
      if (two_opt(a, queue) || or_opt(a, queue)) push(queue, a), --moves_left;
    }
  }

  // Iterated local search of large tours, each kick O(window) plus the moves it triggers: takes
  // `tour` (a local optimum of length `length`), applies `kicks` double bridges whose three cuts
  // lie within 2 window consecutive positions, runs the local search from the cut ends, keeps a
  // kicked tour when it is shorter and otherwise undoes it (every change is a logged reversal).
  void iterate(std::vector<std::size_t>& tour, double length, std::size_t kicks, std::size_t window,
               std::mt19937_64& rng) {
    tour_ = std::move(tour);
    pos_.assign(n_, 0);
    for (std::size_t k = 0; k < n_; ++k) pos_[tour_[k]] = k;
    active_.assign(n_, 0);
    std::vector<std::size_t> queue;
    std::uniform_int_distribution<std::size_t> at(1, n_ - 1 - 2 * window), gap(1, window);
    for (std::size_t kick = 0; kick < kicks; ++kick) {
      const std::size_t c0 = at(rng), c1 = c0 + gap(rng), c2 = c1 + gap(rng);
      // a0 [a1 .. b0] [b1 .. e0] e1 -> a0 [b1 .. e0] [a1 .. b0] e1
      const std::size_t a0 = tour_[c0 - 1], a1 = tour_[c0], b0 = tour_[c1 - 1], b1 = tour_[c1],
                        e0 = tour_[c2 - 1], e1 = tour_[c2];
      const double kicked =
          dist(a0, b1) + dist(e0, a1) + dist(b0, e1) - (dist(a0, a1) + dist(b0, b1) + dist(e0, e1));
      logging_ = true;
      log_.clear();
      gained_ = 0.0;
      reverse(c0, c1 - 1);
      reverse(c1, c2 - 1);
      reverse(c0, c2 - 1);
      for (std::size_t c : {a0, a1, b0, b1, e0, e1}) push(queue, c);
      improve(queue);
      for (std::size_t c : queue) active_[c] = 0;
      queue.clear();
      logging_ = false;
      const double change = kicked - gained_;
      if (change < -kRelativeGain * length) {
        length += change;
      } else {
        for (std::size_t k = log_.size(); k-- > 0;) reverse(log_[k].first, log_[k].second);
      }
    }
    tour = std::move(tour_);
  }

 private:
  std::size_t next(std::size_t c) const { return tour_[pos_[c] + 1 == n_ ? 0 : pos_[c] + 1]; }
  std::size_t prev(std::size_t c) const { return tour_[pos_[c] == 0 ? n_ - 1 : pos_[c] - 1]; }
  void push(std::vector<std::size_t>& queue, std::size_t c) {
    if (!active_[c]) active_[c] = 1, queue.push_back(c);
  }

  // Reverses the cyclic stretch of positions from i to j (inclusive), or its complement.
  void reverse(std::size_t i, std::size_t j) {
    if (logging_) log_.push_back({i, j});  // reverse(i, j) again undoes it
    std::size_t len = (j + n_ - i) % n_ + 1;
    if (2 * len > n_) {
      const std::size_t ni = (j + 1) % n_, nj = (i + n_ - 1) % n_;
      i = ni, j = nj;
      len = n_ - len;
    }
    for (std::size_t m = 0; m < len / 2; ++m) {
      std::swap(tour_[i], tour_[j]);
      pos_[tour_[i]] = i;
      pos_[tour_[j]] = j;
      i = i + 1 == n_ ? 0 : i + 1;
      j = j == 0 ? n_ - 1 : j - 1;
    }
  }

  bool two_opt(std::size_t a, std::vector<std::size_t>& queue) {
    for (int dir = 0; dir < 2; ++dir) {
      const std::size_t b = dir == 0 ? next(a) : prev(a);
      const double dab = dist(a, b);
      for (std::size_t m = 0; m < k_; ++m) {
        const std::size_t c = neighbours_[a * k_ + m];
        const double g = dab - dist(a, c);
        if (g <= 0.0) break;
        const std::size_t e = dir == 0 ? next(c) : prev(c);
        if (c == b || e == a) continue;
        if (g + dist(c, e) - dist(b, e) > kRelativeGain * (dab + dist(c, e))) {
          gained_ += g + dist(c, e) - dist(b, e);
          if (dir == 0) {
            reverse(pos_[b], pos_[c]);  // a b ... c e -> a c ... b e
          } else {
            reverse(pos_[c], pos_[b]);  // e c ... b a -> e b ... c a
          }
          for (std::size_t x : {a, b, c, e}) push(queue, x);
          return true;
        }
      }
    }
    return false;
  }

  bool or_opt(std::size_t a, std::vector<std::size_t>& queue) {
    if (n_ < 5) return false;
    for (std::size_t len = 1; len <= 3 && len + 2 < n_; ++len) {
      // Segment s1..sL starting at a going forward.
      const std::size_t s1 = a;
      std::size_t sl = a;
      for (std::size_t m = 1; m < len; ++m) sl = next(sl);
      const std::size_t p0 = prev(s1), n0 = next(sl);
      const double removed = dist(p0, s1) + dist(sl, n0) - dist(p0, n0);
      if (removed <= 0.0) continue;
      auto in_segment = [&](std::size_t x) { return (pos_[x] + n_ - pos_[s1]) % n_ < len; };
      for (std::size_t end = 0; end < 2; ++end) {
        const std::size_t anchor = end == 0 ? s1 : sl;
        for (std::size_t m = 0; m < k_; ++m) {
          const std::size_t x = neighbours_[anchor * k_ + m];
          if (dist(anchor, x) >= removed) break;
          if (in_segment(x)) continue;
          for (int side = 0; side < 2; ++side) {
            const std::size_t y = side == 0 ? next(x) : prev(x);
            if (in_segment(y)) continue;
            if ((x == p0 && y == n0) || (x == n0 && y == p0)) continue;
            // Insert between x and y with `anchor` next to x.
            const std::size_t other = anchor == s1 ? sl : s1;
            const double added = dist(x, anchor) + dist(other, y) - dist(x, y);
            if (removed - added > kRelativeGain * (dist(p0, s1) + dist(sl, n0) + dist(x, y))) {
              gained_ += removed - added;
              if (logging_) {
                move_by_reversals(p0, s1, sl, n0, x, y, anchor);
              } else {
                move_segment(s1, len, x, y, anchor);
              }
              for (std::size_t c : {p0, n0, x, y, s1, sl}) push(queue, c);
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  // Moves the segment of `len` cities starting at s1 between adjacent x and y, `anchor` (s1 or the
  // segment's last city) next to x. O(n).
  void move_segment(std::size_t s1, std::size_t len, std::size_t x, std::size_t y,
                    std::size_t anchor) {
    std::vector<std::size_t> segment(len);
    for (std::size_t m = 0; m < len; ++m) segment[m] = tour_[(pos_[s1] + m) % n_];
    std::vector<std::size_t> rest;
    rest.reserve(n_);
    const std::size_t start = (pos_[s1] + len) % n_;
    for (std::size_t m = 0; m < n_ - len; ++m) rest.push_back(tour_[(start + m) % n_]);
    // In `rest`, x and y are adjacent; orient the insertion along rest's order.
    std::size_t first = x, second = y;
    std::size_t px = 0;
    while (rest[px] != x) ++px;
    const bool y_after = rest[(px + 1) % rest.size()] == y;
    if (!y_after) first = y, second = x;
    // Segment order seen after `first`: the end adjacent to `first`.
    const bool anchor_at_first = (first == x);
    const std::size_t lead =
        anchor_at_first ? anchor : (anchor == segment.front() ? segment.back() : segment.front());
    if (lead != segment.front()) std::reverse(segment.begin(), segment.end());
    (void)second;
    std::size_t k = 0;
    for (const std::size_t r : rest) {
      tour_[k++] = r;
      if (r == first) {
        for (std::size_t s : segment) tour_[k++] = s;
      }
    }
    for (std::size_t m = 0; m < n_; ++m) pos_[tour_[m]] = m;
  }

  // A 2-opt move: with b next to a, walking on from a through b reaches c and then the city d
  // after c; removes (a, b) and (c, d), adds (a, c) and (b, d) (reverses the path from b to c).
  void two_opt_move(std::size_t a, std::size_t b, std::size_t c) {
    if (next(a) == b) {
      reverse(pos_[b], pos_[c]);
    } else {
      reverse(pos_[c], pos_[b]);
    }
  }

  // Or-opt's move as two or three 2-opt moves, so that it is a logged reversal too: the tour
  // p0 [s1 .. sl] n0 ... u v ... (u, v the pair x, y in the order of that walk) becomes
  // p0 n0 ... u [sl .. s1] v ..., then the segment is turned if `anchor` must be next to x.
  void move_by_reversals(std::size_t p0, std::size_t s1, std::size_t sl, std::size_t n0,
                         std::size_t x, std::size_t y, std::size_t anchor) {
    // or_opt's segment runs forward from s1 (p0 = prev(s1)): the walk goes forward.
    const std::size_t u = next(x) == y ? x : y;
    two_opt_move(p0, s1, u);  // p0 u ... n0 [sl .. s1] v
    two_opt_move(p0, u, n0);  // p0 n0 ... u [sl .. s1] v
    const std::size_t next_to_u = u == x ? anchor : (anchor == s1 ? sl : s1);
    if (next_to_u != sl && s1 != sl) two_opt_move(u, sl, s1);  // u [s1 .. sl] v
  }

  const std::vector<double>& d_;
  std::size_t n_, k_ = 0;
  std::vector<std::size_t> neighbours_, tour_, pos_;
  std::vector<char> active_;
  // While a kick is tried: every reversal is logged (to undo it) and the moves' gains summed.
  bool logging_ = false;
  std::vector<std::pair<std::size_t, std::size_t>> log_;
  double gained_ = 0.0;
};

// At most the exact length of every tour through all processors for d(i, j) (certify.hpp).
// p <= kExactTourMaxCities: Held-Karp on the weights rounded down. Rounding is monotone, so its
// result is at most the rounded sum of the shortest tour's p weights, itself at most (1 + u)^(p-1)
// times their exact sum (a sum of non-negative terms, subnormal ones included, gains at most that
// factor): it is scaled by 1 - p u. Above: the 1-tree of the ascent's best penalties, evaluated
// with outward steps.
double certified_tour_bound(const Cluster& cl, const std::vector<double>& d, double tour) {
  const std::size_t p = cl.size();
  if (p <= 1) return 0.0;
  if (p > kExactTourMaxCities) return one_tree_lower_bound(d, p, one_tree_penalties(d, p, tour));
  std::vector<double> lower(p * p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i != j) lower[i * p + j] = edge_lower(cl, i, j);
    }
  }
  return down(shortest_tour_length(lower, p) * (1.0 - static_cast<double>(p) * kUnitRoundoff));
}

}  // namespace

std::vector<std::size_t> tsp_tour(const std::vector<double>& d, std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> tour(n);
  std::iota(tour.begin(), tour.end(), 0);
  if (n <= 3) return tour;
  LocalSearch search(d, n);
  tour = search.nearest_neighbour();
  search.optimise(tour);
  double best_length = tour_length(d, n, tour);
  // Iterated local search for small instances: double-bridge kicks.
  const std::size_t kicks = n < 8 ? 0 : (n <= 200 ? 2000 : (n <= 2000 ? 200 : 0));
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> candidate;
  std::vector<char> dirty(n);
  for (std::size_t kick = 0; kick < kicks; ++kick) {
    std::vector<std::size_t> cut(3);
    std::uniform_int_distribution<std::size_t> at(1, n - 1);
    for (auto& x : cut) x = at(rng);
    std::sort(cut.begin(), cut.end());
    if (cut[0] == cut[1] || cut[1] == cut[2]) continue;
    candidate.clear();
    candidate.insert(candidate.end(), tour.begin(),
                     tour.begin() + static_cast<std::ptrdiff_t>(cut[0]));
    candidate.insert(candidate.end(), tour.begin() + static_cast<std::ptrdiff_t>(cut[2]),
                     tour.end());
    candidate.insert(candidate.end(), tour.begin() + static_cast<std::ptrdiff_t>(cut[1]),
                     tour.begin() + static_cast<std::ptrdiff_t>(cut[2]));
    candidate.insert(candidate.end(), tour.begin() + static_cast<std::ptrdiff_t>(cut[0]),
                     tour.begin() + static_cast<std::ptrdiff_t>(cut[1]));
    std::fill(dirty.begin(), dirty.end(), 0);
    for (std::size_t x : {std::size_t{0}, cut[0], cut[1], cut[2]}) {
      dirty[tour[x]] = 1;
      dirty[tour[x == 0 ? n - 1 : x - 1]] = 1;
    }
    search.optimise(candidate, &dirty);
    const double length = tour_length(d, n, candidate);
    if (length < best_length * (1.0 - kRelativeGain)) best_length = length, tour = candidate;
  }
  // Above 2000 cities a kick that copies the tour costs too much: local kicks instead, undone
  // when they do not pay.
  if (n > kLocalKicksFrom) search.iterate(tour, best_length, kLocalKicks, kKickWindow, rng);
  return tour;
}

std::vector<double> one_tree_penalties(const std::vector<double>& d, std::size_t n, double upper,
                                       std::size_t iterations) {
  std::vector<double> pi(n, 0.0), best_pi = pi;
  if (n <= 3) return best_pi;  // every tour is the same cycle
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<std::uint32_t> rest_v, rest_parent;
  std::vector<double> rest_key, rest_pi;
  std::vector<int> degree(n);
  double best = -inf;
  double lambda = 1.0;
  std::size_t since_improvement = 0;
  if (iterations == 0) {
    iterations = n <= 1000 ? 100
                           : std::max<std::size_t>(
                                 10, static_cast<std::size_t>(2.0e9 / (double(n) * double(n))));
  }
  for (std::size_t it = 0; it < iterations; ++it) {
    // Minimum spanning tree of vertices 1..n-1 (Prim, O(n^2): one fused pass per step updates
    // the keys and finds the next vertex), then vertex 0's two cheapest edges.
    std::fill(degree.begin(), degree.end(), 0);
    // The vertices not yet in the tree, with their keys, penalties and tree neighbours, kept
    // contiguous (swap-removal) so that the pass streams through them.
    rest_v.clear(), rest_key.clear(), rest_pi.clear(), rest_parent.clear();
    for (std::size_t v = 2; v < n; ++v) {
      rest_v.push_back(static_cast<std::uint32_t>(v));
      rest_key.push_back(inf);
      rest_pi.push_back(pi[v]);
      rest_parent.push_back(1);
    }
    double cost = 0.0;
    std::size_t u = 1;
    while (!rest_v.empty()) {
      const double* row = &d[u * n];
      const double pu = pi[u];
      const auto uu = static_cast<std::uint32_t>(u);
      double best_key = inf;
      std::size_t best_at = 0;
      const std::size_t size = rest_v.size();
      for (std::size_t m = 0; m < size; ++m) {
        const double w = row[rest_v[m]] + pu + rest_pi[m];
        if (w < rest_key[m]) rest_key[m] = w, rest_parent[m] = uu;
        if (rest_key[m] < best_key) best_key = rest_key[m], best_at = m;
      }
      u = rest_v[best_at];
      cost += best_key;
      ++degree[u], ++degree[rest_parent[best_at]];
      rest_v[best_at] = rest_v.back(), rest_v.pop_back();
      rest_key[best_at] = rest_key.back(), rest_key.pop_back();
      rest_pi[best_at] = rest_pi.back(), rest_pi.pop_back();
      rest_parent[best_at] = rest_parent.back(), rest_parent.pop_back();
    }
    double e1 = inf, e2 = inf;
    std::size_t v1 = 1, v2 = 1;
    for (std::size_t v = 1; v < n; ++v) {
      const double w = d[v] + pi[0] + pi[v];
      if (w < e1)
        e2 = e1, v2 = v1, e1 = w, v1 = v;
      else if (w < e2)
        e2 = w, v2 = v;
    }
    cost += e1 + e2;
    degree[0] = 2;
    ++degree[v1], ++degree[v2];
    const double bound = cost - 2.0 * std::accumulate(pi.begin(), pi.end(), 0.0);
    // Penalties that drive the 1-tree out of the double range end the ascent (the first 1-tree,
    // without penalties, is at most a tour: finite).
    if (!std::isfinite(bound)) break;
    if (it == 0 || !at_most(bound, best, kSearchResolution)) {
      if (bound > best) best = bound, best_pi = pi;
      since_improvement = 0;
    } else if (++since_improvement >= 3) {
      lambda /= 2.0, since_improvement = 0;
    }
    double norm = 0.0;
    for (std::size_t v = 0; v < n; ++v) norm += double(degree[v] - 2) * double(degree[v] - 2);
    if (norm == 0.0) break;  // the 1-tree is a tour: optimal
    // The step keeps a floor of kTimeTolerance of the tour once the bound meets it, so that the
    // ascent still moves when rounding makes the two equal.
    const double step = lambda * std::max(upper - bound, kTimeTolerance * std::fabs(upper)) / norm;
    for (std::size_t v = 0; v < n; ++v) pi[v] += step * (degree[v] - 2);
  }
  return best_pi;
}

double one_tree_lower_bound(const std::vector<double>& d, std::size_t n,
                            const std::vector<double>& pi) {
  if (n < 3) throw std::logic_error("one_tree_lower_bound needs three cities");
  // The penalised weight, rounded down: the same for (u, v) and (v, u) (d is symmetric; row u is
  // read in order), at most the exact d(u, v) + pi_u + pi_v.
  auto weight = [&](std::size_t u, std::size_t v) {
    const double low = edge_lower_from_rounded(d[u * n + v]);
    return add_down(add_down(low, pi[std::min(u, v)]), pi[std::max(u, v)]);
  };
  // Prim on vertices 1..n-1 compares these fixed weights exactly: its tree is a minimum one for
  // them, so its cost, summed rounded down, is at most the exact minimum.
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> key(n, inf);
  std::vector<char> in_tree(n, 0);
  double cost = 0.0;
  std::size_t u = 1;
  in_tree[1] = 1;
  for (std::size_t added = 2; added < n; ++added) {
    std::size_t next = 0;
    for (std::size_t v = 2; v < n; ++v) {
      if (in_tree[v]) continue;
      key[v] = std::min(key[v], weight(u, v));
      if (next == 0 || key[v] < key[next]) next = v;
    }
    cost = add_down(cost, key[next]);
    in_tree[next] = 1;
    u = next;
  }
  double e1 = inf, e2 = inf;  // vertex 0's two cheapest penalised edges
  for (std::size_t v = 1; v < n; ++v) {
    const double w = weight(0, v);
    if (w < e1)
      e2 = e1, e1 = w;
    else if (w < e2)
      e2 = w;
  }
  cost = add_down(add_down(cost, e1), e2);
  double penalties = 0.0;  // at least the exact sum of the penalties
  for (double x : pi) penalties = add_up(penalties, x);
  return std::max(0.0, add_down(cost, -add_up(penalties, penalties)));
}

double shortest_tour_length(const std::vector<double>& d, std::size_t n) {
  if (n > kExactTourMaxCities) throw std::logic_error("shortest_tour_length: too many cities");
  if (n <= 1) return 0.0;
  constexpr double inf = std::numeric_limits<double>::infinity();
  // dp[S * m + j]: shortest path from city 0 through the cities of S (bit k: city k + 1) ending
  // at city j + 1, for j in S.
  const std::size_t m = n - 1, sets = std::size_t{1} << m;
  std::vector<double> dp(sets * m, inf);
  for (std::size_t j = 0; j < m; ++j) dp[(std::size_t{1} << j) * m + j] = d[j + 1];
  for (std::size_t set = 1; set < sets; ++set) {
    for (std::size_t j = 0; j < m; ++j) {
      const double v = dp[set * m + j];
      if (v == inf) continue;
      for (std::size_t k = 0; k < m; ++k) {
        if (set >> k & 1) continue;
        double& target = dp[(set | std::size_t{1} << k) * m + k];
        target = std::min(target, v + d[(j + 1) * n + k + 1]);
      }
    }
  }
  double best = inf;
  for (std::size_t j = 0; j < m; ++j)
    best = std::min(best, dp[(sets - 1) * m + j] + d[(j + 1) * n]);
  return best;
}

Solution plan_tsp(const Cluster& cluster, std::optional<std::size_t> q) {
  const std::size_t p = cluster.size();
  if (q && *q != p) {
    throw OptionError(fmt::format("algorithm tsp puts all {} processors on the ring", p), "q");
  }
  std::vector<double> d(p * p, 0.0);  // symmetric by construction (one_tree_lower_bound)
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = i + 1; j < p; ++j) d[i * p + j] = d[j * p + i] = cluster.edge(i, j);
  }
  std::vector<std::size_t> ring = tsp_tour(d, p);
  Solution s = solution_for_ring(cluster, std::move(ring), "tsp");
  const double tour = ring_tour_cost(cluster, s.ring);
  const double bound = certified_tour_bound(cluster, d, tour);
  const char* tour_bound = p <= kExactTourMaxCities
                               ? "the shortest tour (Held-Karp dynamic programming)"
                               : "the Held-Karp 1-tree bound on every tour";
  std::vector<std::size_t> everyone(p);
  std::iota(everyone.begin(), everyone.end(), 0);
  s.tour_cost = tour;
  s.tour_lower_bound = bound;
  double lower = eq3_lower(cluster, bound, inverse_upper(cluster, everyone));
  if (q) {
    s.notes.push_back(
        fmt::format("lower_bound: over rings of all processors ({}, Eq. 3)", tour_bound));
  } else {
    lower = ring_size_bound(cluster, std::nullopt, lower);
    s.notes.push_back(fmt::format(
        "lower_bound: over every ring size ({} with all processors, Eq. 3; exact with 1 and 2; "
        "each member's two cheapest links with more)",
        tour_bound));
  }
  s.lower_bound = std::min(lower, s.makespan);
  claim_optimal_if_certified(cluster, s, Proof::lower_bound);
  s.notes.push_back(fmt::format(
      "tour_gap = tour_cost / tour_lower_bound - 1 compares the ring's tour cost (sum of comm_i / "
      "w_i) with {} of all processors, not T_step (that is gap)",
      tour_bound));
  return s;
}

}  // namespace redist::slicering
