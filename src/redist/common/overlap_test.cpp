#include "redist/common/overlap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace redist {
namespace {

// A long span holds a short one within the allowance (a resolution of 0.5 here) and a third one
// beyond it, which touches the short one not at all: compared only with its predecessor in start
// order, the third one would pass.
TEST(Overlap, FoundInsideALongSpanWhateverTheOrder) {
  std::vector<Span> spans = {{0, 10, 0}, {1, 1.4, 1}, {1.5, 3, 2}};
  const auto by_index = [](const Span& a, const Span& b) { return a.index < b.index; };
  int orders = 0;
  do {
    std::vector<Span> copy = spans;
    const auto o = first_overlap(copy, 0.5);
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->first, 0u);
    EXPECT_EQ(o->second, 2u);
    ++orders;
  } while (std::next_permutation(spans.begin(), spans.end(), by_index));
  EXPECT_EQ(orders, 6);
}

// Touching spans, or spans sharing less than their allowance, do not overlap; the allowance is
// relative to the instant shared, plus the resolution.
TEST(Overlap, TheAllowanceIsOfTheInstantShared) {
  std::vector<Span> near_zero = {{0, 1e-6, 0}, {1e-6 - 1e-14, 2e-6, 1}};
  EXPECT_TRUE(first_overlap(near_zero, 0.0).has_value());     // 1e-14 > 1e-9 of 1e-6
  EXPECT_FALSE(first_overlap(near_zero, 1e-13).has_value());  // within the resolution
  std::vector<Span> late = {{1e6, 1e6 + 1, 0}, {1e6 + 1 - 1e-4, 1e6 + 2, 1}};
  EXPECT_FALSE(first_overlap(late, 0.0).has_value());  // 1e-4 < 1e-9 of 1e6 + 1
  std::vector<Span> touching = {{0, 1, 0}, {1, 2, 1}, {2, 3, 2}};
  EXPECT_FALSE(first_overlap(touching, 0.0).has_value());
}

// `n` spans of one second, each starting before the previous one ends by 0.9 of its allowance.
std::vector<Span> creeping_spans(std::size_t n) {
  std::vector<Span> spans;
  double start = 0;
  for (std::size_t k = 0; k < n; ++k) {
    spans.push_back({start, start + 1, k});
    start += 1 - 0.9 * kTimeTolerance * (start + 1);
  }
  return spans;
}

// Many overlaps, each within its allowance, exceed the busy time the span leaves.
TEST(Overlap, BusyTimeAddsTheSmallOverlapsUp) {
  std::vector<Span> spans = creeping_spans(10000);
  EXPECT_FALSE(first_overlap(spans, 0.0).has_value());
  EXPECT_TRUE(busy_time(spans, 0.0).exceeds(0.0));
  for (std::size_t k = 0; k < spans.size(); ++k) spans[k] = {double(k), double(k) + 1, k};
  EXPECT_FALSE(busy_time(spans, 0.0).exceeds(0.0));
  EXPECT_FALSE(busy_time({}, 0.0).exceeds(0.0));
}

// The same small overlaps, then a gap and a span far away: neither the gap (which the span from
// first start to last end would leave them) nor the far end (whose allowance is larger) hides
// them, in any order of the spans.
TEST(Overlap, AGapOrAFarStretchHidesNoSmallOverlaps) {
  std::vector<Span> spans = creeping_spans(10000);
  spans.push_back({1e9, 1e9 + 1, spans.size()});
  std::mt19937_64 rng(7);
  for (int round = 0; round < 3; ++round) {
    const BusyTime b = busy_time(spans, 0.0);
    EXPECT_TRUE(b.exceeds(0.0));
    EXPECT_LT(b.last_end, 1e4);  // the first stretch is the one reported
    std::shuffle(spans.begin(), spans.end(), rng);
  }
}

// The compensated sum keeps what a plain sum rounds away, in any order.
TEST(Overlap, CompensatedSumKeepsSmallTerms) {
  std::vector<double> terms(1000, 1e-17);
  terms.push_back(1.0);
  std::mt19937_64 rng(5);
  for (int round = 0; round < 10; ++round) {
    std::shuffle(terms.begin(), terms.end(), rng);
    CompensatedSum sum;
    for (double x : terms) sum.add(x);
    EXPECT_DOUBLE_EQ(sum.value(), 1.0 + 1e-14);
  }
  double plain = 1.0;
  for (int k = 0; k < 1000; ++k) plain += 1e-17;
  EXPECT_EQ(plain, 1.0);
}

}  // namespace
}  // namespace redist
