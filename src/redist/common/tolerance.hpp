// The relative tolerances of redist, each defined once with its reason. Times are doubles; each
// family's planners and validator compare them with these, never with a bare literal.
#pragma once

#include <algorithm>
#include <cmath>

namespace redist {

// Two times of one schedule are the same when they differ by at most this fraction of the larger
// (or of the makespan, for the validators). Times are sums of up to millions of costs, each sum
// rounding by about 1e-16 relative; 1e-9 leaves seven orders of magnitude for that accumulation
// while still catching any real overlap or wrong claim (a cost is never below 1e-12 of the
// horizon, see kTimeResolution).
inline constexpr double kTimeTolerance = 1e-9;

// The finest relative difference a planner treats as real when it compares two of its own
// candidates (a search's bound against its incumbent, a tour against a shorter one): a few
// thousand rounding units, so that rounding noise never counts as an improvement.
inline constexpr double kSearchResolution = 1e-12;

// A duration below this fraction of the longest time a schedule may reach would vanish when added
// to a time near it; instances that need one are refused.
inline constexpr double kTimeResolution = 1e-12;

// The least cost per item a measurement of a link reports, in seconds (a picosecond): a link that
// moved its items faster than the clock can tell still costs something, so that no plan divides
// by zero or treats the link as free.
inline constexpr double kShortestItemCost = 1e-12;

// LP solvers (COIN-OR CLP) return primal values accurate to about 1e-7 relative; a result
// computed from them is compared with this.
inline constexpr double kLpTolerance = 1e-7;

// |a - b| <= tolerance * max(|a|, |b|): a and b are the same time.
inline bool same_time(double a, double b, double tolerance = kTimeTolerance) {
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

// `value` is at most `bound` up to the tolerance: value <= bound * (1 + tolerance).
inline bool at_most(double value, double bound, double tolerance = kTimeTolerance) {
  return value <= bound + tolerance * std::fabs(bound);
}

}  // namespace redist
