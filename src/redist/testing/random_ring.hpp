// Random ring instances for property tests and benchmarks (header-only, test support only).
//
// Loads are uniform in [load_min, load_max]; targets are a uniformly random composition of the
// same total with every target >= target_min (stars and bars: n-1 sorted cut points in
// [0, total - n*target_min], plus target_min each); costs are uniform in [cost_min, cost_max]
// (one value for every link when homogeneous).
#pragma once

#include <algorithm>
#include <random>

#include "redist/ring/model.hpp"

namespace redist::testkit {

struct RandomRingOptions {
  std::size_t n_min = 2, n_max = 64;
  std::int64_t load_min = 1, load_max = 1000;
  std::int64_t target_min = 1;
  double cost_min = 0.1, cost_max = 10.0;
  bool bidirectional = false;
  bool homogeneous = false;
};

inline ring::Instance random_ring(std::mt19937_64& rng, const RandomRingOptions& o) {
  std::uniform_int_distribution<std::size_t> size(o.n_min, o.n_max);
  std::uniform_int_distribution<std::int64_t> load(o.load_min, o.load_max);
  std::uniform_real_distribution<double> cost(o.cost_min, o.cost_max);
  ring::Instance in;
  in.bidirectional = o.bidirectional;
  const std::size_t n = size(rng);
  in.loads.resize(n);
  std::int64_t total = 0;
  for (auto& l : in.loads) total += (l = load(rng));
  if (total < static_cast<std::int64_t>(n) * o.target_min) {
    // Not enough items for every target minimum: top up the first processor.
    in.loads[0] += static_cast<std::int64_t>(n) * o.target_min - total;
    total = static_cast<std::int64_t>(n) * o.target_min;
  }
  const std::int64_t free_items = total - static_cast<std::int64_t>(n) * o.target_min;
  std::uniform_int_distribution<std::int64_t> cut(0, free_items);
  std::vector<std::int64_t> cuts(n - 1);
  for (auto& c : cuts) c = cut(rng);
  std::sort(cuts.begin(), cuts.end());
  in.targets.resize(n);
  std::int64_t previous = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    in.targets[i] = o.target_min + cuts[i] - previous;
    previous = cuts[i];
  }
  in.targets[n - 1] = o.target_min + free_items - previous;
  const double common = cost(rng);
  auto draw = [&] { return o.homogeneous ? common : cost(rng); };
  in.cost_next.resize(n);
  for (auto& c : in.cost_next) c = draw();
  if (o.bidirectional) {
    in.cost_prev.resize(n);
    for (auto& c : in.cost_prev) c = draw();
  }
  return in;
}

}  // namespace redist::testkit
