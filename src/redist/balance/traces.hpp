// Random traces of drifting speeds, for experiments, benchmarks and tests (docs/balance.md).
// Deterministic for a seed on every platform (own integer-to-real conversions over mt19937_64).
//
// Kinds of drift:
//   steps      RRV04 §8: every processor's speed changes twice, once at an iteration drawn in
//              [0.2 K, 0.4 K] and once in [0.6 K, 0.8 K]; speeds are drawn from kMachineSpeeds.
//   walk       a geometric random walk: s_i(t + 1) = s_i(t) * exp(0.05 g), g standard normal,
//              kept within [22, 172].
//   transient  speeds drawn once from kMachineSpeeds; in each iteration a processor that is not
//              slowed down starts, with probability 1/25, a slowdown by a factor drawn in [2, 4]
//              lasting 1 to 10 iterations (a co-scheduled job, a throttled node).
// Ring: p processors, bidirectional, link costs (1 / mean initial speed) / ratio times a factor
// drawn in [0.5, 1.5]: `ratio` is the computation-to-communication ratio, the time to process an
// item over the time to send it over a link. Initial loads: balanced_targets(items, s(0)).
// Complexity: O(K p).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "redist/balance/model.hpp"

namespace redist::balance {

// Processing speeds of twelve machines between 22 and 172 (work units per time unit).
inline constexpr std::array<double, 12> kMachineSpeeds = {22, 28, 35,  44,  52,  63,
                                                          75, 88, 104, 121, 145, 172};

enum class Drift { steps, walk, transient };

// "steps", "walk", "transient"; InputError ("--drift") otherwise.
Drift parse_drift(std::string_view name);
const char* to_string(Drift drift);

struct TraceSpec {
  Drift drift = Drift::steps;
  std::size_t processors = 8;
  std::int64_t iterations = 100;
  std::int64_t items = 1000;
  double ratio = 1.0;
  std::uint64_t seed = 1;
};

Trace random_trace(const TraceSpec& spec);

}  // namespace redist::balance
