#include "redist/lau/optimal.hpp"

#include <algorithm>
#include <cstdint>

#include "redist/lau/closed_forms.hpp"
#include "redist/lau/linear.hpp"

namespace redist::lau {

namespace {

// Traffic sum |s_i - h| in O(log n) from the sorted flows.
class TrafficOracle {
 public:
  explicit TrafficOracle(const std::vector<std::int64_t>& flows) : sorted_(flows) {
    std::sort(sorted_.begin(), sorted_.end());
    prefix_.assign(sorted_.size() + 1, 0);
    for (std::size_t i = 0; i < sorted_.size(); ++i) prefix_[i + 1] = prefix_[i] + sorted_[i];
    const std::size_t n = sorted_.size();
    median_lo_ = sorted_[(n - 1) / 2];
    median_hi_ = sorted_[n / 2];
  }
  Int128 operator()(std::int64_t h) const {
    const auto k = static_cast<std::size_t>(std::lower_bound(sorted_.begin(), sorted_.end(), h) -
                                            sorted_.begin());
    const Int128 n = static_cast<Int128>(sorted_.size()), kk = static_cast<Int128>(k);
    return Int128{h} * kk - prefix_[k] + (prefix_.back() - prefix_[k]) - Int128{h} * (n - kk);
  }
  // The smallest h of [lo, hi] with minimal traffic (traffic is convex, minimal on the medians).
  std::int64_t best_in(std::int64_t lo, std::int64_t hi) const {
    if (lo > median_hi_) return lo;
    if (hi < median_lo_) return hi;
    return std::max(lo, median_lo_);
  }
  std::int64_t min() const { return sorted_.front(); }
  std::int64_t max() const { return sorted_.back(); }

 private:
  std::vector<std::int64_t> sorted_;
  std::vector<Int128> prefix_;
  std::int64_t median_lo_ = 0, median_hi_ = 0;
};

// Longest circular run of red leaves; padding leaves are the identity (length 0).
class RunTree {
 public:
  explicit RunTree(const std::vector<char>& red) : n_(red.size()) {
    size_ = 1;
    while (size_ < n_) size_ *= 2;
    nodes_.assign(2 * size_, Node{});
    for (std::size_t i = 0; i < n_; ++i) nodes_[size_ + i] = leaf(red[i]);
    for (std::size_t v = size_ - 1; v >= 1; --v)
      nodes_[v] = merge(nodes_[2 * v], nodes_[2 * v + 1]);
  }
  void set(std::size_t i, bool red) {
    std::size_t v = size_ + i;
    nodes_[v] = leaf(red);
    for (v /= 2; v >= 1; v /= 2) nodes_[v] = merge(nodes_[2 * v], nodes_[2 * v + 1]);
  }
  // Longest circular run; n when every node is red.
  std::size_t longest() const {
    const Node& r = nodes_[1];
    if (r.pref == r.len) return n_;
    return std::max<std::size_t>(r.best, r.pref + r.suf);
  }

 private:
  struct Node {
    std::uint32_t len = 0, pref = 0, suf = 0, best = 0;
  };
  static Node leaf(bool red) {
    const std::uint32_t r = red ? 1 : 0;
    return {1, r, r, r};
  }
  static Node merge(const Node& a, const Node& b) {
    Node c;
    c.len = a.len + b.len;
    c.pref = a.pref == a.len ? a.len + b.pref : a.pref;
    c.suf = b.suf == b.len ? b.len + a.suf : b.suf;
    c.best = std::max({a.best, b.best, a.suf + b.pref});
    return c;
  }
  std::size_t n_, size_;
  std::vector<Node> nodes_;
};

bool all_zero(const std::vector<std::int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; });
}

struct Best {
  bool set = false;
  Time t;
  Int128 traffic = 0;
  std::int64_t h = 0;
  void offer(Time ct, Int128 ctraffic, std::int64_t ch) {
    if (!set || time_less(ct, t) ||
        (ct == t && (ctraffic < traffic || (ctraffic == traffic && ch < h)))) {
      set = true;
      t = ct;
      traffic = ctraffic;
      h = ch;
    }
  }
};

}  // namespace

Plan plan_optimal_single(const Instance& in) {
  const std::vector<std::int64_t> s = linear_flows(in);
  if (all_zero(s)) return plan_with_shift(in, s, 0, "optimal");
  const std::size_t n = in.size();
  const TrafficOracle oracle(s);
  const std::int64_t h0 = oracle.min(), h1 = oracle.max();
  // Green interval of node i: [s_i - l_i, s_{i-1} + l_i]; events inside (h0, h1].
  struct Event {
    std::int64_t h;
    std::uint32_t node;
    bool red;
  };
  std::vector<Event> events;
  events.reserve(2 * n);
  std::vector<char> red(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Int128 a = Int128{s[i]} - in.loads[i];
    const Int128 b = Int128{s[(i + n - 1) % n]} + in.loads[i];
    red[i] = Int128{h0} < a || Int128{h0} > b;
    if (a > h0 && a <= h1)
      events.push_back({static_cast<std::int64_t>(a), static_cast<std::uint32_t>(i), false});
    if (b + 1 > h0 && b + 1 <= h1) {
      events.push_back({static_cast<std::int64_t>(b + 1), static_cast<std::uint32_t>(i), true});
    }
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.h < y.h; });
  RunTree tree(red);
  Best best;
  std::int64_t lo = h0;
  std::size_t e = 0;
  while (true) {
    while (e < events.size() && events[e].h == lo) {
      tree.set(events[e].node, events[e].red);
      ++e;
    }
    const std::int64_t hi = e < events.size() ? events[e].h - 1 : h1;
    const std::size_t chain = tree.longest();
    const Time t = chain == n ? Time{} : Time{static_cast<std::int64_t>(chain) + 1};
    const std::int64_t h = oracle.best_in(lo, hi);
    best.offer(t, oracle(h), h);
    if (e == events.size()) break;
    lo = events[e].h;
  }
  return plan_with_shift(in, s, best.h, "optimal");
}

Plan plan_optimal_multi(const Instance& in) {
  const std::vector<std::int64_t> s = linear_flows(in);
  if (all_zero(s)) return plan_with_shift(in, s, 0, "optimal");
  const std::size_t n = in.size();
  const TrafficOracle oracle(s);
  const LoadWindows windows(in.loads);
  // The feasible h for T_m <= t, as [lo, hi] (empty when lo > hi).
  auto feasible = [&](std::int64_t t) {
    Int128 lo = oracle.min(), hi = oracle.max();
    for (std::size_t i = 0; i < n; ++i) {
      lo = std::max(lo, Int128{s[i]} - windows.upstream_of_next(i, t));
      hi = std::min(hi, Int128{s[i]} + windows.upstream_of_prev(i, t));
    }
    return std::pair<Int128, Int128>{lo, hi};
  };
  std::int64_t low = 1, high = 2 * static_cast<std::int64_t>(n);  // high is always feasible
  while (low < high) {
    const std::int64_t mid = low + (high - low) / 2;
    const auto [lo, hi] = feasible(mid);
    if (lo <= hi) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  const auto [lo, hi] = feasible(low);
  const std::int64_t h =
      oracle.best_in(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
  return plan_with_shift(in, s, h, "optimal");
}

Plan plan_optimal(const Instance& in, Mode mode) {
  return mode == Mode::single ? plan_optimal_single(in) : plan_optimal_multi(in);
}

}  // namespace redist::lau
