#include "redist/ring/bounds.hpp"
#include "redist/common/checked.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace redist::ring {

namespace {

// The three smallest (or largest) values of a sequence with their indices, so that the extreme
// over "all indices but at most two" is found in O(1).
struct Extremes {
  std::array<std::int64_t, 3> value{};
  std::array<std::size_t, 3> index{};
  std::size_t size = 0;

  // `better(a, b)`: a is more extreme than b.
  template <class Better>
  void offer(std::int64_t v, std::size_t i, Better better) {
    std::size_t pos = size < 3 ? size : 3;
    while (pos > 0 && better(v, value[pos - 1])) --pos;
    if (pos >= 3) return;
    for (std::size_t k = std::min<std::size_t>(size, 2); k > pos; --k) {
      value[k] = value[k - 1];
      index[k] = index[k - 1];
    }
    value[pos] = v;
    index[pos] = i;
    size = std::min<std::size_t>(size + 1, 3);
  }

  // The most extreme value whose index is neither a nor b; false when there is none.
  bool excluding(std::size_t a, std::size_t b, std::int64_t* out) const {
    for (std::size_t k = 0; k < size; ++k) {
      if (index[k] != a && index[k] != b) {
        *out = value[k];
        return true;
      }
    }
    return false;
  }
};

// Largest |imbalance| over non-trivial slices (2 <= length <= n-1): the slice C_{k,l} is
// prefix[l] - prefix[m] with m = k-1, and its length is in range iff m is neither l nor l-1.
// Returns {largest positive imbalance, largest negative magnitude}, both >= 0.
std::pair<std::int64_t, std::int64_t> extreme_nontrivial_slices(
    const std::vector<std::int64_t>& prefix) {
  const std::size_t n = prefix.size();
  Extremes low, high;
  for (std::size_t i = 0; i < n; ++i) {
    low.offer(prefix[i], i, [](std::int64_t a, std::int64_t b) { return a < b; });
    high.offer(prefix[i], i, [](std::int64_t a, std::int64_t b) { return a > b; });
  }
  std::int64_t positive = 0, negative = 0;
  for (std::size_t l = 0; l < n; ++l) {
    const std::size_t before = l == 0 ? n - 1 : l - 1;
    std::int64_t m;
    if (low.excluding(l, before, &m)) positive = std::max(positive, prefix[l] - m);
    if (high.excluding(l, before, &m)) negative = std::max(negative, m - prefix[l]);
  }
  return {positive, negative};
}

// min over integer i in [0, total] of max(i * a, (total - i) * b): the best split of `total`
// items over two ports of per-item costs a and b. The function is convex in i, so the integer
// optimum is the floor or the ceiling of the real one, total * b / (a + b).
long double best_two_port_split(std::int64_t total, double a, double b) {
  const long double t = static_cast<long double>(total);
  const long double real = t * b / (static_cast<long double>(a) + b);
  long double best = std::numeric_limits<long double>::infinity();
  for (long double i : {std::floor(real), std::ceil(real)}) {
    i = std::clamp(i, 0.0L, t);
    best = std::min(best, std::max(i * a, (t - i) * b));
  }
  return best;
}

}  // namespace

double lemma1_bound(const Instance& in) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const auto [lo, hi] = std::minmax_element(prefix.begin(), prefix.end());
  return static_cast<double>(static_cast<long double>(*hi - *lo) * in.cost_next[0]);
}

double theorem2_bound(const Instance& in) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const std::int64_t lowest = *std::min_element(prefix.begin(), prefix.end());
  long double best = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    best = std::max(best, static_cast<long double>(prefix[i] - lowest) * in.cost_next[i]);
  }
  return static_cast<double>(best);
}

double lemma6_bound(const Instance& in) {
  std::int64_t steps = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::int64_t d = in.imbalance(i);
    steps = std::max(steps, d < 0 ? -d : d);
  }
  const auto [positive, negative] = extreme_nontrivial_slices(prefix_imbalances(in));
  const std::int64_t slice = std::max(positive, negative);
  steps = std::max(steps, slice / 2 + slice % 2);
  return static_cast<double>(static_cast<long double>(steps) * in.cost_next[0]);
}

std::optional<double> lemma12_bound(const Instance& in, std::size_t max_n) {
  const std::size_t n = in.size();
  if (n > max_n) return std::nullopt;
  long double best = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::int64_t d = in.imbalance(k);
    if (d > 0)
      best =
          std::max(best, d * static_cast<long double>(std::min(in.cost_prev[k], in.cost_next[k])));
    if (d < 0) {
      const double in_cost = std::min(in.cost_next[in.pred(k)], in.cost_prev[in.succ(k)]);
      best = std::max(best, -d * static_cast<long double>(in_cost));
    }
  }
  // Non-trivial slices C_{k,l} of length 2..n-1.
  for (std::size_t k = 0; k < n; ++k) {
    std::int64_t slice = in.imbalance(k);
    std::size_t l = k;
    for (std::size_t length = 2; length < n; ++length) {
      l = in.succ(l);
      slice += in.imbalance(l);
      if (slice > 0) {
        best = std::max(best, best_two_port_split(slice, in.cost_prev[k], in.cost_next[l]));
      } else if (slice < 0) {
        best = std::max(
            best, best_two_port_split(-slice, in.cost_next[in.pred(k)], in.cost_prev[in.succ(l)]));
      }
    }
  }
  return static_cast<double>(best);
}

namespace {

// tau(x) of System 6 for flows[i] = x + prefix[i], in long double (exact for counts < 2^64).
long double system6_tau(const Instance& in, const std::vector<std::int64_t>& prefix, Int128 x) {
  const std::size_t n = in.size();
  long double tau = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t before = in.pred(i);
    const auto in_flow = static_cast<long double>(x + prefix[before]);  // over pred(i) -> i
    const auto out_flow = static_cast<long double>(x + prefix[i]);      // over i -> succ(i)
    long double send = 0, receive = 0;
    if (out_flow > 0)
      send += out_flow * in.cost_next[i];
    else if (out_flow < 0)
      receive += -out_flow * in.cost_prev[in.succ(i)];
    if (in_flow > 0)
      receive += in_flow * in.cost_next[before];
    else if (in_flow < 0)
      send += -in_flow * in.cost_prev[i];
    tau = std::max({tau, send, receive});
  }
  return tau;
}

}  // namespace

double system6_time(const Instance& in, const std::vector<std::int64_t>& flows) {
  return static_cast<double>(system6_tau(in, flows, 0));  // flows[i] = 0 + flows[i]
}

System6Solution system6_integer_optimum(const Instance& in) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const auto [lo_it, hi_it] = std::minmax_element(prefix.begin(), prefix.end());
  // Flows must be >= 0 on a unidirectional ring, so x >= -min(prefix); tau grows with x there.
  Int128 lo = -static_cast<Int128>(*hi_it);
  const Int128 hi = -static_cast<Int128>(*lo_it);
  if (!in.bidirectional) lo = hi;
  // Smallest x in [lo, hi] with tau(x + 1) >= tau(x): the minimum of a convex function.
  Int128 a = lo, b = hi;
  while (a < b) {
    const Int128 mid = a + (b - a) / 2;
    if (system6_tau(in, prefix, mid + 1) >= system6_tau(in, prefix, mid)) {
      b = mid;
    } else {
      a = mid + 1;
    }
  }
  System6Solution s;
  s.tau = static_cast<double>(system6_tau(in, prefix, a));
  s.flows.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) s.flows[i] = static_cast<std::int64_t>(a + prefix[i]);
  return s;
}

BoundReport ring_bounds(const Instance& in) {
  BoundReport report;
  if (!in.bidirectional) {
    if (in.homogeneous()) report.terms.emplace_back("lemma1", lemma1_bound(in));
    report.terms.emplace_back("theorem2", theorem2_bound(in));
  } else {
    if (in.homogeneous()) report.terms.emplace_back("lemma6", lemma6_bound(in));
    report.terms.emplace_back("lemma12", lemma12_bound(in));
  }
  report.terms.emplace_back("system6", system6_integer_optimum(in).tau);
  for (const auto& [name, value] : report.terms) {
    if (value) report.lower_bound = std::max(report.lower_bound, *value);
  }
  return report;
}

}  // namespace redist::ring
