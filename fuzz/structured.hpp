// Building blocks of the structured fuzzers: valid instances drawn from the fuzzer's bytes, with
// the extremes every family must survive (two processors, zero loads, one processor holding
// everything, counts near 2^62, magnitudes from 1e-300 to 1e300).
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz/fuzz_support.hpp"

namespace redist::fuzz {

// A size in [low, high], small most of the time.
inline std::size_t draw_size(FuzzedDataProvider& in, std::size_t low, std::size_t small,
                             std::size_t high) {
  if (in.ConsumeIntegralInRange<int>(0, 7) != 0) return in.ConsumeIntegralInRange(low, small);
  return in.ConsumeIntegralInRange(low, high);
}

// n non-negative counts summing to at most `max_total`, in one of several shapes.
inline std::vector<std::int64_t> draw_counts(FuzzedDataProvider& in, std::size_t n,
                                             std::int64_t max_total) {
  std::vector<std::int64_t> counts(n, 0);
  const std::int64_t per = std::max<std::int64_t>(max_total / static_cast<std::int64_t>(n), 0);
  switch (in.ConsumeIntegralInRange(0, 5)) {
    case 0:  // all zero
      break;
    case 1:  // one processor holds everything
      counts[in.ConsumeIntegralInRange<std::size_t>(0, n - 1)] =
          in.ConsumeIntegralInRange<std::int64_t>(0, max_total);
      break;
    case 2:  // small counts
      for (auto& x : counts)
        x = in.ConsumeIntegralInRange<std::int64_t>(0, std::min<std::int64_t>(per, 12));
      break;
    case 3:  // huge counts
      for (auto& x : counts) x = in.ConsumeIntegralInRange<std::int64_t>(per / 2, per);
      break;
    case 4:  // sparse: mostly zero, a few anywhere in range
      for (auto& x : counts)
        x = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<std::int64_t>(0, per);
      break;
    default:  // uniform
      for (auto& x : counts) x = in.ConsumeIntegralInRange<std::int64_t>(0, per);
  }
  return counts;
}

// Counts of the same total as `counts`, redistributed (every entry >= 0).
inline std::vector<std::int64_t> draw_same_total(FuzzedDataProvider& in,
                                                 const std::vector<std::int64_t>& counts) {
  std::int64_t total = 0;
  for (std::int64_t x : counts) total += x;
  std::vector<std::int64_t> out = draw_counts(in, counts.size(), total);
  std::int64_t sum = 0;
  for (std::int64_t x : out) sum += x;
  // sum <= total by construction: give the rest to one processor.
  out[in.ConsumeIntegralInRange<std::size_t>(0, out.size() - 1)] += total - sum;
  return out;
}

// A positive normal double: 10^e times a mantissa in [1, 10), e in [-300, 300], or a small
// integer (what exact solvers need), or one of the extremes.
inline double draw_magnitude(FuzzedDataProvider& in, int exponent) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      return static_cast<double>(in.ConsumeIntegralInRange(1, 10));
    case 1:
      return in.PickValueInArray({1e-300, 1e300, 2.2250738585072014e-308, 1.7e308, 1.0});
    default:
      return in.ConsumeFloatingPointInRange(1.0, 10.0) * std::pow(10.0, exponent);
  }
}

// n positive values: homogeneous (one value), or heterogeneous around one scale, or wild (every
// value with its own exponent).
inline std::vector<double> draw_positive(FuzzedDataProvider& in, std::size_t n) {
  const int exponent = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange(-300, 300);
  std::vector<double> out(n);
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0: {
      const double v = draw_magnitude(in, exponent);
      for (double& x : out) x = v;
      break;
    }
    case 1:
      for (double& x : out) x = draw_magnitude(in, in.ConsumeIntegralInRange(-300, 300));
      break;
    default:
      for (double& x : out) x = draw_magnitude(in, exponent);
  }
  return out;
}

// Only the drawing of instances, never their verdict, depends on the bytes left: a generator that
// ran out of bytes still gives a valid instance (FuzzedDataProvider returns the lowest values).

// An SVG chart must not hold a non-finite coordinate: no word "nan" or "inf" (any case).
inline void require_finite_svg(const std::string& svg, const std::string& where) {
  auto letter = [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) != 0; };
  for (std::size_t i = 0; i + 3 <= svg.size(); ++i) {
    std::string word = svg.substr(i, 3);
    for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (word != "nan" && word != "inf") continue;
    if ((i > 0 && letter(svg[i - 1])) || (i + 3 < svg.size() && letter(svg[i + 3]))) continue;
    fail(where + ": '" + svg.substr(i > 40 ? i - 40 : 0, 80) + "' in the SVG");
  }
}

}  // namespace redist::fuzz
