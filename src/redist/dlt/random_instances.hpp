// Random divisible-load instances for property tests (header-only, test support only).
//
// 1 to max_workers workers; b, s and alpha drawn log-uniformly over `orders` orders of magnitude
// centred on 1, a third of the alpha set to 0 (empty workers).
#pragma once

#include <cmath>
#include <random>

#include "redist/dlt/model.hpp"

namespace redist::dlt {

inline Instance random_instance(std::mt19937_64& rng, double orders, std::size_t max_workers) {
  std::uniform_real_distribution<double> exponent(-orders / 2, orders / 2);
  const std::size_t m = 1 + rng() % max_workers;
  Instance in;
  for (std::size_t i = 0; i < m; ++i) {
    in.b.push_back(std::pow(10.0, exponent(rng)));
    in.s.push_back(std::pow(10.0, exponent(rng)));
    in.alpha.push_back(rng() % 3 == 0 ? 0.0 : std::pow(10.0, exponent(rng)));
  }
  return in;
}

}  // namespace redist::dlt
