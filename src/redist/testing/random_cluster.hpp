// Random clusters and the published SLICE platforms for tests and benchmarks (header-only, test
// support only).
#pragma once

#include "redist/testing/data_dir.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "redist/io/slicering_json.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering::testing {

// w uniform in [0.5, 5]; c log-uniform over two decades (asymmetric unless `symmetric`), so that
// some rings saturate a member with communication; W, H as given.
inline Cluster random_cluster(std::mt19937_64& rng, std::size_t p, double W, double H,
                              bool symmetric = false) {
  std::uniform_real_distribution<double> w(0.5, 5.0), e(-1.0, 1.0);
  Cluster cl;
  cl.W = W;
  cl.H = H;
  cl.w.resize(p);
  for (auto& x : cl.w) x = w(rng);
  cl.c.assign(p * p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j) {
      if (i == j) continue;
      if (symmetric && j < i) {
        cl.c[i * p + j] = cl.c[j * p + i];
      } else {
        cl.c[i * p + j] = std::pow(10.0, e(rng));
      }
    }
  }
  return cl;
}

inline Cluster platform(const std::string& name) {
  return io::read_cluster(
      io::read_document((testkit::data_dir() / "slicering" / (name + ".json")).string()));
}

}  // namespace redist::slicering::testing
