// Random LAU instances for property tests and benchmarks (header-only, test support only).
//
// n uniform in [n_min, n_max], loads uniform in [0, load_max]. Balanced instances (targets = the
// average) add to loads[0] the smallest amount making the sum divisible by n; otherwise targets are
// a uniformly random composition of the total (n-1 sorted cut points in [0, total]).
#pragma once

#include <algorithm>
#include <random>

#include "redist/lau/model.hpp"

namespace redist::testkit {

struct RandomLauOptions {
  std::size_t n_min = 2, n_max = 60;
  std::int64_t load_max = 200;
  bool random_targets = false;
};

inline lau::Instance random_lau(std::mt19937_64& rng, const RandomLauOptions& o) {
  std::uniform_int_distribution<std::size_t> size(o.n_min, o.n_max);
  std::uniform_int_distribution<std::int64_t> load(0, o.load_max);
  const std::size_t n = size(rng);
  std::vector<std::int64_t> loads(n);
  std::int64_t total = 0;
  for (auto& l : loads) total += (l = load(rng));
  if (!o.random_targets) {
    const auto nn = static_cast<std::int64_t>(n);
    loads[0] += (nn - total % nn) % nn;
    return lau::balanced_instance(std::move(loads));
  }
  std::uniform_int_distribution<std::int64_t> cut(0, total);
  std::vector<std::int64_t> cuts(n - 1);
  for (auto& c : cuts) c = cut(rng);
  std::sort(cuts.begin(), cuts.end());
  lau::Instance in;
  in.loads = std::move(loads);
  in.targets.resize(n);
  std::int64_t previous = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    in.targets[i] = cuts[i] - previous;
    previous = cuts[i];
  }
  in.targets[n - 1] = total - previous;
  lau::validate_instance(in);
  return in;
}

}  // namespace redist::testkit
