#include "redist/balance/traces.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  std::int64_t integer(std::int64_t a, std::int64_t b) {  // [a, b]
    return a + static_cast<std::int64_t>(engine_() % static_cast<std::uint64_t>(b - a + 1));
  }
  double normal() {  // Box-Muller
    const double u = 1.0 - uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * uniform());
  }
  double machine() { return kMachineSpeeds[static_cast<std::size_t>(integer(0, 11))]; }

 private:
  std::mt19937_64 engine_;
};

using Rows = std::vector<std::vector<double>>;

Rows steps(const TraceSpec& spec, Random& rng) {
  const std::int64_t k = spec.iterations;
  Rows rows(static_cast<std::size_t>(k), std::vector<double>(spec.processors));
  for (std::size_t i = 0; i < spec.processors; ++i) {
    const std::int64_t first = rng.integer(k / 5, 2 * k / 5);
    const std::int64_t second = rng.integer(3 * k / 5, 4 * k / 5);
    const double speeds[3] = {rng.machine(), rng.machine(), rng.machine()};
    for (std::int64_t t = 0; t < k; ++t)
      rows[static_cast<std::size_t>(t)][i] = speeds[(t >= first) + (t >= second)];
  }
  return rows;
}

Rows walk(const TraceSpec& spec, Random& rng) {
  Rows rows(static_cast<std::size_t>(spec.iterations), std::vector<double>(spec.processors));
  for (std::size_t i = 0; i < spec.processors; ++i) {
    double s = rng.machine();
    for (auto& row : rows) {
      row[i] = s;
      s = std::clamp(s * std::exp(0.05 * rng.normal()), 22.0, 172.0);
    }
  }
  return rows;
}

Rows transient(const TraceSpec& spec, Random& rng) {
  Rows rows(static_cast<std::size_t>(spec.iterations), std::vector<double>(spec.processors));
  const double start = 1.0 / 25.0;  // a processor starts a slowdown once in 25 iterations
  for (std::size_t i = 0; i < spec.processors; ++i) {
    const double base = rng.machine();
    std::int64_t left = 0;
    double factor = 1.0;
    for (auto& row : rows) {
      if (left == 0 && rng.uniform() < start) {
        left = rng.integer(1, 10);
        factor = rng.uniform(2.0, 4.0);
      }
      row[i] = left > 0 ? base / factor : base;
      if (left > 0) --left;
    }
  }
  return rows;
}

}  // namespace

Drift parse_drift(std::string_view name) {
  if (name == "steps") return Drift::steps;
  if (name == "walk") return Drift::walk;
  if (name == "transient") return Drift::transient;
  throw OptionError("unknown drift (known: steps, walk, transient)", "drift");
}

const char* to_string(Drift drift) {
  switch (drift) {
    case Drift::steps:
      return "steps";
    case Drift::walk:
      return "walk";
    case Drift::transient:
      return "transient";
  }
  return "?";
}

Trace random_trace(const TraceSpec& spec) {
  Random rng(spec.seed);
  Trace trace;
  trace.speeds = spec.drift == Drift::steps  ? steps(spec, rng)
                 : spec.drift == Drift::walk ? walk(spec, rng)
                                             : transient(spec, rng);
  double mean = 0.0;
  for (double s : trace.speeds.front()) mean += s / static_cast<double>(spec.processors);
  const double cost = 1.0 / mean / spec.ratio;
  for (std::size_t i = 0; i < spec.processors; ++i) {
    trace.ring.cost_next.push_back(cost * rng.uniform(0.5, 1.5));
    trace.ring.cost_prev.push_back(cost * rng.uniform(0.5, 1.5));
  }
  trace.initial_loads = balanced_targets(spec.items, trace.speeds.front());
  return trace;
}

}  // namespace redist::balance
