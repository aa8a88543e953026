#include "redist/ring/bounds.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/ring/slices.hpp"

namespace redist::ring {

namespace {

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
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const detail::SliceExtremes slices(prefix);
  // Largest |imbalance| over non-trivial slices (none when n = 2).
  const std::int64_t slice =
      in.size() < 3 ? 0 : std::max<std::int64_t>({0, slices.max_slice(), -slices.min_slice()});
  steps = std::max(steps, slice / 2 + slice % 2);
  return static_cast<double>(static_cast<long double>(steps) * in.cost_next[0]);
}

namespace {

// The single-processor terms of Lemma 12: a processor with d > 0 items too many sends them over
// its cheaper link, one with -d too few receives them over its cheaper incoming link.
long double lemma12_processor_term(const Instance& in) {
  long double best = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::int64_t d = in.imbalance(k);
    if (d > 0)
      best =
          std::max(best, d * static_cast<long double>(std::min(in.cost_prev[k], in.cost_next[k])));
    if (d < 0) {
      const double in_cost = std::min(in.cost_next[in.pred(k)], in.cost_prev[in.succ(k)]);
      best = std::max(best, -d * static_cast<long double>(in_cost));
    }
  }
  return best;
}

// `best` raised to the two-port split of `total` items over per-item costs a and b, when that can
// exceed it: the split is at most total * min(a, b) (every item on the cheaper port), so the
// exact minimum is only computed when that upper bound is above `best`.
void raise_to_split(long double& best, std::int64_t total, double a, double b) {
  if (static_cast<long double>(total) * std::min(a, b) <= best) return;
  best = std::max(best, best_two_port_split(total, a, b));
}

}  // namespace

std::optional<double> lemma12_bound(const Instance& in, std::size_t max_n) {
  const std::size_t n = in.size();
  if (n > max_n) return std::nullopt;
  long double best = lemma12_processor_term(in);
  // Non-trivial slices C_{k,l} of length 2..n-1.
  for (std::size_t k = 0; k < n; ++k) {
    std::int64_t slice = in.imbalance(k);
    std::size_t l = k;
    for (std::size_t length = 2; length < n; ++length) {
      l = in.succ(l);
      slice += in.imbalance(l);
      if (slice > 0) {
        raise_to_split(best, slice, in.cost_prev[k], in.cost_next[l]);
      } else if (slice < 0) {
        raise_to_split(best, -slice, in.cost_next[in.pred(k)], in.cost_prev[in.succ(l)]);
      }
    }
  }
  return static_cast<double>(best);
}

std::string lemma12_skipped_note(std::size_t n, std::size_t max_n) {
  return fmt::format(
      "lemma12 skipped: its pass over every slice takes O(n^2) time, computed up to {} "
      "processors (this ring has {}); system6 is never below it, so the lower bound is the same",
      max_n, n);
}

namespace {

// The flow x + prefix[i] as a Real. Flows within 64 bits go through int64 (a single instruction,
// and the same value as the 128-bit conversion, which only larger ones need).
template <class Real>
Real flow_at(const std::vector<std::int64_t>& prefix, Int128 x, std::size_t i) {
  const Int128 flow = x + prefix[i];
  const auto narrow = static_cast<std::int64_t>(flow);
  return narrow == flow ? static_cast<Real>(narrow) : static_cast<Real>(flow);
}

// Processor i's one-port time in System 6, max(send, receive), when `in_flow` items cross
// pred(i) -> i and `out_flow` items cross i -> succ(i) (negative: the other way), in Real.
template <class Real>
Real port_time(const Instance& in, std::size_t i, Real in_flow, Real out_flow) {
  Real send = 0, receive = 0;
  if (out_flow > 0)
    send += out_flow * in.cost_next[i];
  else if (out_flow < 0)
    receive += -out_flow * in.cost_prev[in.succ(i)];
  if (in_flow > 0)
    receive += in_flow * in.cost_next[in.pred(i)];
  else if (in_flow < 0)
    send += -in_flow * in.cost_prev[i];
  return std::max(send, receive);
}

}  // namespace

namespace detail {

System6Tau::System6Tau(const Instance& in, const std::vector<std::int64_t>& prefix)
    : in_(in), prefix_(prefix), port_(in.size()) {
  constexpr std::int64_t kExact = std::int64_t{1} << 53;
  exact_doubles_ = std::all_of(prefix.begin(), prefix.end(),
                               [](std::int64_t p) { return -kExact <= p && p <= kExact; });
  if (exact_doubles_) prefix_double_.assign(prefix.begin(), prefix.end());
}

// Two passes. The first, in double and without branches, finds the largest port time up to
// rounding: when x and every prefix are exact doubles (|.| <= 2^53), each double port time is
// within 2^-50 (relative) of the long double one as long as it stays a normal double, so only
// processors within 2^-40 of the largest double time can hold the long double maximum; the second
// pass evaluates just those in long double. Otherwise (larger counts, times below 2^-900 where
// denormal products lose the relative bound, or beyond the double range) every processor is
// evaluated in long double.
long double System6Tau::operator()(Int128 x) {
  constexpr Int128 kExact = Int128{1} << 53;
  const std::size_t n = in_.size();
  bool filter = exact_doubles_ && -kExact <= x && x <= kExact;
  double cut = 0;
  if (filter) {
    const double largest = in_.bidirectional
                               ? approximate_port_times<true>(static_cast<double>(x))
                               : approximate_port_times<false>(static_cast<double>(x));
    filter = largest >= 0x1p-900 && largest <= std::numeric_limits<double>::max();
    cut = largest * (1 - 0x1p-40);
  }
  long double tau = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (filter && port_[i] < cut) continue;
    tau =
        std::max(tau, port_time<long double>(in_, i, flow_at<long double>(prefix_, x, in_.pred(i)),
                                             flow_at<long double>(prefix_, x, i)));
  }
  return tau;
}

// Without branches on the signs of the flows, so that the loop pipelines well. A unidirectional
// ring has no cost_prev (and flows >= 0).
template <bool kBidirectional>
double System6Tau::approximate_port_times(double x) {
  const std::size_t n = in_.size();
  const double* p = prefix_double_.data();
  const double* next = in_.cost_next.data();
  const double* prev = in_.cost_prev.data();
  const auto positive = [](double v) { return v > 0 ? v : 0.0; };
  const auto port = [&](std::size_t before, std::size_t i, std::size_t after) {
    const double out = x + p[i], into = x + p[before];
    double send = positive(out) * next[i], receive = positive(into) * next[before];
    if constexpr (kBidirectional) {
      send += positive(-into) * prev[i];
      receive += positive(-out) * prev[after];
    }
    return std::max(send, receive);
  };
  port_[0] = port(in_.pred(0), 0, in_.succ(0));
  port_[n - 1] = port(in_.pred(n - 1), n - 1, in_.succ(n - 1));
  for (std::size_t i = 1; i + 1 < n; ++i) port_[i] = port(i - 1, i, i + 1);
  return *std::max_element(port_.begin(), port_.end());
}

}  // namespace detail

double system6_time(const Instance& in, const std::vector<std::int64_t>& flows) {
  return static_cast<double>(detail::System6Tau(in, flows)(0));  // flows[i] = 0 + flows[i]
}

namespace {

// A line slope * u + intercept, u = x - origin (long double: exact enough for counts < 2^63).
struct Line {
  long double slope;
  long double intercept;
};

// A line's index, and its slope rounded to double as an unsigned integer of the same order (sign
// bit set for positive values, every bit flipped for negative ones; -0 is read as +0).
struct SlopeKey {
  std::uint64_t slope;
  std::uint32_t line;
};

std::uint64_t ordered_bits(double slope) {
  const auto u = std::bit_cast<std::uint64_t>(slope == 0 ? 0.0 : slope);
  return u >> 63 ? ~u : u | (std::uint64_t{1} << 63);
}

// Stable LSD radix sort of the keys by slope, a byte at a time; bytes that every key shares are
// skipped. O(n) per byte.
void radix_sort(std::vector<SlopeKey>& keys) {
  std::vector<SlopeKey> buffer(keys.size());
  for (int shift = 0; shift < 64; shift += 8) {
    std::array<std::size_t, 257> start{};
    for (const SlopeKey& k : keys) ++start[((k.slope >> shift) & 0xff) + 1];
    if (std::find(start.begin(), start.end(), keys.size()) != start.end()) continue;
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    for (const SlopeKey& k : keys) buffer[start[(k.slope >> shift) & 0xff]++] = k;
    keys.swap(buffer);
  }
}

// The upper line of every slope (the largest intercept; lines of one slope under it never reach
// the envelope), by increasing slope. The keys are sorted on the slopes rounded to double:
// rounding is monotone, so different doubles order their lines as the long double slopes do, and
// only within a run of equal doubles are the lines themselves compared.
std::vector<Line> upper_lines_by_slope(const std::vector<Line>& lines) {
  std::vector<SlopeKey> keys(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    keys[i] = {ordered_bits(static_cast<double>(lines[i].slope)), static_cast<std::uint32_t>(i)};
  }
  radix_sort(keys);
  const auto before = [&](const SlopeKey& p, const SlopeKey& q) {
    const Line& a = lines[p.line];
    const Line& b = lines[q.line];
    return a.slope != b.slope ? a.slope < b.slope : a.intercept > b.intercept;
  };
  std::vector<Line> upper;
  upper.reserve(lines.size());
  for (auto run = keys.begin(); run != keys.end();) {
    const Line& first = lines[run->line];
    // Equal doubles: usually one long double slope (the cost of a link is the slope of both its
    // sender's and its receiver's line), whose upper line is found in one pass.
    bool one_slope = true;
    auto end = run + 1;
    const Line* top = &first;
    for (; end != keys.end() && end->slope == run->slope; ++end) {
      const Line& l = lines[end->line];
      one_slope = one_slope && l.slope == first.slope;
      if (l.intercept > top->intercept) top = &l;
    }
    if (one_slope) {
      upper.push_back(*top);
    } else {
      std::sort(run, end, before);
      for (auto k = run; k != end; ++k) {
        const Line& l = lines[k->line];
        if (k == run || upper.back().slope != l.slope) upper.push_back(l);
      }
    }
    run = end;
  }
  return upper;
}

// A real minimiser, relative to `origin`, of tau(x) over x in [origin, origin + length], where no
// breakpoint -prefix[i] lies strictly inside the segment, so that every send and receive time of
// System 6 is linear there: tau is the upper envelope of 2n lines, built by the convex hull trick
// after a sort by slope; the minimum is at the vertex where the envelope's slope turns >= 0.
// O(n log n).
long double segment_minimiser(const Instance& in, const std::vector<std::int64_t>& prefix,
                              Int128 origin, Int128 length) {
  const std::size_t n = in.size();
  // sign of x + prefix[i] inside the segment: sign of 2 * (origin + prefix[i]) + length.
  auto positive = [&](std::size_t i) { return 2 * (origin + prefix[i]) + length > 0; };
  auto negative = [&](std::size_t i) { return 2 * (origin + prefix[i]) + length < 0; };
  // flow_i(u) = u + (origin + prefix[i]); term = factor * flow_i(u) * cost.
  std::vector<Line> lines;
  lines.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t before = in.pred(i);
    const auto out0 = flow_at<long double>(prefix, origin, i);
    const auto in0 = flow_at<long double>(prefix, origin, before);
    Line send{0, 0}, receive{0, 0};
    auto add = [](Line& l, long double sign, long double base, double cost) {
      l.slope += sign * cost;
      l.intercept += sign * base * cost;
    };
    if (positive(i)) add(send, 1, out0, in.cost_next[i]);
    if (negative(i)) add(receive, -1, out0, in.cost_prev[in.succ(i)]);
    if (positive(before)) add(receive, 1, in0, in.cost_next[before]);
    if (negative(before)) add(send, -1, in0, in.cost_prev[i]);
    lines.push_back(send);
    lines.push_back(receive);
  }
  std::vector<Line> hull;
  for (const Line& l : upper_lines_by_slope(lines)) {
    while (hull.size() >= 2) {
      const Line& a = hull[hull.size() - 2];
      const Line& b = hull.back();
      // b is useless when a and l cross at or left of where a and b cross.
      if ((a.intercept - l.intercept) * (b.slope - a.slope) <=
          (a.intercept - b.intercept) * (l.slope - a.slope)) {
        hull.pop_back();
      } else {
        break;
      }
    }
    hull.push_back(l);
  }
  std::size_t k = 0;
  while (k < hull.size() && hull[k].slope < 0) ++k;
  if (k == 0) return 0;
  if (k == hull.size()) return static_cast<long double>(length);
  const Line& a = hull[k - 1];
  const Line& b = hull[k];
  const long double u = (a.intercept - b.intercept) / (b.slope - a.slope);
  return std::clamp(u, 0.0L, static_cast<long double>(length));
}

}  // namespace

// Integer minimum of the convex tau(x), x = flows[n-1], in O(n log n) independent of the loads:
// a binary search over the sorted breakpoints x = -prefix[i] (tau evaluated at O(log n) of them)
// brackets the minimum between two breakpoints around the best one; on each of the (at most two)
// segments every term is linear and segment_minimiser finds the real minimiser x*; by convexity
// the integer optimum is floor(x*) or ceil(x*) (one more integer each side absorbs rounding).
System6Solution system6_integer_optimum(const Instance& in) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const std::size_t n = in.size();
  detail::System6Tau tau(in, prefix);
  Int128 best_x;
  if (!in.bidirectional) {
    // Flows must be >= 0 on a unidirectional ring, so x >= -min(prefix); tau grows with x there.
    best_x = -static_cast<Int128>(*std::min_element(prefix.begin(), prefix.end()));
  } else {
    std::vector<std::int64_t> points(n);
    for (std::size_t i = 0; i < n; ++i) points[i] = -prefix[i];
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    // Smallest k with tau(points[k + 1]) >= tau(points[k]): the best breakpoint (convexity).
    std::size_t a = 0, b = points.size() - 1;
    while (a < b) {
      const std::size_t mid = a + (b - a) / 2;
      if (tau(points[mid + 1]) >= tau(points[mid])) {
        b = mid;
      } else {
        a = mid + 1;
      }
    }
    best_x = points[a];
    long double best = tau(best_x);
    auto offer = [&](Int128 x, Int128 lo, Int128 hi) {
      x = std::clamp(x, lo, hi);
      const long double t = tau(x);
      if (t < best) {
        best = t;
        best_x = x;
      }
    };
    for (std::size_t s = (a == 0 ? 0 : a - 1); s < a + 1 && s + 1 < points.size(); ++s) {
      const Int128 lo = points[s], hi = points[s + 1];
      if (hi - lo <= 1) continue;  // both ends are breakpoints, already bracketed
      const long double u = segment_minimiser(in, prefix, lo, hi - lo);
      const auto floor_u = static_cast<Int128>(std::floor(u));
      for (Int128 d = -1; d <= 2; ++d) offer(lo + floor_u + d, lo, hi);
      offer(lo, lo, hi);
      offer(hi, lo, hi);
    }
  }
  System6Solution s;
  s.tau = static_cast<double>(tau(best_x));
  s.flows.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.flows[i] = static_cast<std::int64_t>(best_x + prefix[i]);
  return s;
}

BoundReport bounds(const Instance& in, std::size_t lemma12_max_n) {
  validate_instance(in);
  require_finite_times(in);  // every bound is at most the longest schedule time
  BoundReport report;
  if (!in.bidirectional) {
    if (in.homogeneous()) report.terms.push_back({"lemma1", lemma1_bound(in)});
    report.terms.push_back({"theorem2", theorem2_bound(in)});
  } else {
    if (in.homogeneous()) report.terms.push_back({"lemma6", lemma6_bound(in)});
    report.terms.push_back({"lemma12", lemma12_bound(in, lemma12_max_n)});
    if (!report.terms.back().value) {
      report.notes.push_back(lemma12_skipped_note(in.size(), lemma12_max_n));
    }
  }
  report.terms.push_back({"system6", system6_integer_optimum(in).tau});
  for (const auto& [name, value] : report.terms) {
    if (value) report.lower_bound = std::max(report.lower_bound, *value);
  }
  return report;
}

}  // namespace redist::ring
