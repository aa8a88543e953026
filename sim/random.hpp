// The random streams of the simulated platforms and runs (tiers.hpp, ring_sim.hpp): each seed
// gives independent streams, one per purpose, so that changing one drawing (say the hosts') moves
// nothing else. Deterministic on every platform: std::mt19937_64 seeded by
// std::seed_seq{low 32 bits of the seed, high 32 bits, stream}, with our own integer-to-real
// conversion.
#pragma once

#include <cstdint>
#include <random>

namespace redist::sim::detail {

enum Stream : std::uint32_t { placement = 1, hosts = 2, links = 3, ring = 4, speeds = 5 };

class Random {
 public:
  Random(std::uint64_t seed, Stream stream) {
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(stream)};
    engine_.seed(seq);
  }
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  std::int64_t below(std::int64_t n) {                                           // [0, n), n >= 1
    return static_cast<std::int64_t>(engine_() % static_cast<std::uint64_t>(n));
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace redist::sim::detail
