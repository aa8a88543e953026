// Random clusters and the published SLICE platforms for tests and benchmarks (header-only, test
// support only).
#pragma once

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
  // REDIST_DATA_DIR (set by ctest), else the source tree's data/ next to this header.
  const char* dir = std::getenv("REDIST_DATA_DIR");
  const std::string base =
      dir ? dir : (std::filesystem::path(__FILE__).parent_path() / "../../../data").string();
  return io::read_cluster(io::read_document(base + "/slicering/" + name + ".json"));
}

}  // namespace redist::slicering::testing
