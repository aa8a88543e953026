#include "redist/slicering/bounds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "redist/slicering/exact.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/slicering_brute_force.hpp"

namespace redist::slicering {
namespace {

using testing::brute_force_t_step;

Cluster random_small(std::mt19937_64& rng, std::size_t p) {
  return testing::random_cluster(rng, p, std::pow(10.0, double(rng() % 7) - 2.0), 1.0,
                                 rng() % 2 == 0);
}

// The relaxation never exceeds the optimum over every ring enumerated, for every size range and
// every forced size (4000 clusters of 1-8 processors, W/H across seven decades).
TEST(RingSizeBound, NeverAboveTheEnumeratedOptimum) {
  std::mt19937_64 rng(31);
  int tight = 0;
  for (int trial = 0; trial < testkit::random_cases(4000); ++trial) {
    const std::size_t p = 1 + trial % 8;
    const Cluster cl = random_small(rng, p);
    const double optimum = brute_force_t_step(cl);
    const double bound = ring_size_bound(cl, std::nullopt);
    EXPECT_LE(bound, optimum * (1 + 1e-12)) << "trial " << trial;
    EXPECT_GT(bound, 0.0);
    tight += bound >= optimum * (1 - 1e-9);
    const std::size_t q = 1 + rng() % p;
    EXPECT_LE(ring_size_bound(cl, q), brute_force_t_step(cl, q) * (1 + 1e-12))
        << "trial " << trial << " q " << q;
    if (p >= 3) {
      const std::size_t a = 3 + rng() % (p - 2);
      double best = INFINITY;
      for (std::size_t size = a; size <= p; ++size)
        best = std::min(best, brute_force_t_step(cl, size));
      EXPECT_LE(cheapest_links_bound(cl, a, p), best * (1 + 1e-12)) << "trial " << trial;
    }
  }
  // Sizes 1 and 2 are exact, and often optimal.
  EXPECT_GT(tight, testkit::random_cases(1000));
}

// Rings of two are solved exactly: the bound is their optimum, less its rounding.
TEST(RingSizeBound, PairsAreTheEnumeratedOptimumOfTwo) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const Cluster cl = random_small(rng, 2 + trial % 6);
    const double optimum = brute_force_t_step(cl, 2);
    EXPECT_LE(ring_size_bound(cl, 2), optimum * (1 + 1e-15));
    EXPECT_GE(ring_size_bound(cl, 2), optimum * (1 - 1e-14));
  }
}

// On a homogeneous network every member's cheapest links are its actual links: the relaxation
// is exact for every size q >= 3 on which the fastest q processors form the best ring.
TEST(RingSizeBound, ExactOnHomogeneousNetworks) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t p = 3 + trial % 5;
    Cluster cl = random_small(rng, p);
    cl.c.assign(p * p, 0.7);
    for (std::size_t q = 3; q <= p; ++q) {
      EXPECT_NEAR(ring_size_bound(cl, q), brute_force_t_step(cl, q), 1e-9 * cl.W)
          << "trial " << trial << " q " << q;
    }
  }
}

}  // namespace
}  // namespace redist::slicering
