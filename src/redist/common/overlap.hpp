// How the validators judge the time spans that share a one-port resource (a node's send or receive
// port, the master's ports of a star): one rule for every family (docs/formats.md, "Tolerances of
// the validators").
//
// - Allowance. Two spans may share kTimeTolerance of the latest instant they share, plus the
//   instance's resolution (kTimeResolution of a time the instance fixes, never one the plan
//   chooses): a tolerance of the times compared, which no far-away span can widen. The resolution
//   covers the times near 0, where a relative tolerance vanishes but the rounding of a time
//   computed from larger ones (a deadline minus a duration) does not.
// - Sweep. Sorted by (start, end, index), each span is compared with the span that ends last
//   among those before it: that one shares the most time with it, and its allowance grows more
//   slowly than the time shared (by kTimeTolerance), so the sweep finds an overlap whenever any
//   pair has one. The verdict is the same for any order of the spans.
// - Busy time. The durations of a port's spans, summed with Neumaier's compensation, may exceed
//   the time they cover by at most the allowance of the end, stretch by stretch (a stretch: spans
//   without a gap between them): many overlaps, each within its allowance, cannot add up, and no
//   far-away stretch widens the allowance of another.
// Complexity: O(S log S) for S spans.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "redist/common/tolerance.hpp"

namespace redist {

// A span [start, end) of an entry of the checked plan (`index`: its position there).
struct Span {
  double start = 0.0, end = 0.0;
  std::size_t index = 0;
};

// How much time two spans whose shared time ends at `instant` may share, for an instance of
// resolution `resolution` (kTimeResolution times the instance's own scale).
inline double allowance(double instant, double resolution) {
  return kTimeTolerance * instant + resolution;
}

// A sum of doubles with Neumaier's compensation: its rounding error stays a few units of the
// result for any number of terms, where a plain sum's grows with their count.
class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    compensation_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0, compensation_ = 0.0;
};

// The order of the sweep, a total order: by start, then end, then index.
inline bool earlier(const Span& a, const Span& b) {
  return std::tie(a.start, a.end, a.index) < std::tie(b.start, b.end, b.index);
}

// Two spans, by their indices, that share more than their allowance: the earlier first (in
// `earlier` order).
struct Overlap {
  std::size_t first = 0, second = 0;
};

// The first overlap of `spans` in `earlier` order, or none. Sorts `spans`.
inline std::optional<Overlap> first_overlap(std::vector<Span>& spans, double resolution) {
  std::sort(spans.begin(), spans.end(), earlier);
  std::size_t last = 0;  // the span ending last among those before k
  for (std::size_t k = 1; k < spans.size(); ++k) {
    const double shared_end = std::min(spans[last].end, spans[k].end);
    if (shared_end - spans[k].start > allowance(shared_end, resolution)) {
      return Overlap{spans[last].index, spans[k].index};
    }
    if (spans[k].end > spans[last].end) last = k;
  }
  return std::nullopt;
}

// The time spans take in all, and the time they cover (the length of their union).
struct BusyTime {
  double busy = 0.0, covered = 0.0, last_end = 0.0;
  // The spans take more time than they cover, beyond the allowance of the last end: they overlap,
  // by small amounts that add up if not by one large one.
  bool exceeds(double resolution) const { return busy > covered + allowance(last_end, resolution); }
};

// The busy time of a port, stretch by stretch: a stretch is a run of spans without a gap, and
// each is judged at the allowance of its own end, so that no far-away stretch widens it. The
// first stretch that exceeds its allowance, or the last one. `spans` in any order (sorted by
// start, as the sweep leaves them, avoids a copy).
inline BusyTime busy_time(const std::vector<Span>& spans, double resolution) {
  if (spans.empty()) return {};
  const auto by_start = [](const Span& a, const Span& b) { return a.start < b.start; };
  std::vector<Span> sorted;
  const std::vector<Span>* in_order = &spans;
  if (!std::is_sorted(spans.begin(), spans.end(), by_start)) {
    sorted = spans;
    std::sort(sorted.begin(), sorted.end(), by_start);
    in_order = &sorted;
  }
  CompensatedSum busy;
  double begin = in_order->front().start, end = in_order->front().end;
  for (const Span& s : *in_order) {
    if (s.start > end) {  // a gap closes the stretch so far
      const BusyTime stretch{busy.value(), end - begin, end};
      if (stretch.exceeds(resolution)) return stretch;
      busy = CompensatedSum();
      begin = s.start;
    }
    busy.add(s.end - s.start);
    end = std::max(end, s.end);
  }
  return {busy.value(), end - begin, end};
}

}  // namespace redist
