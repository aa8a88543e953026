// The particle application of `redist experiment particles` and examples/particles
// (docs/zoltan.md): particles in the unit square whose work grows near a hot spot that moves, the
// kind of load that makes a partitioned code rebalance.
//
// Particle i starts at a position drawn uniformly in the unit square with a velocity drawn
// uniformly in [-v, v]^2 (v = max_velocity); every iteration it moves by its velocity and
// bounces off the walls. The hot spot circles the centre of the square at radius 0.3, once every
// `orbit_period` iterations. Particle i's work in iteration t is
//   1 + (hot_work - 1) exp(-(d / hot_radius)^2),
// d its distance to the hot spot during iteration t: from 1 far away to hot_work at the spot.
// Deterministic for a spec on every platform that has IEEE doubles and the same libm (the
// positions are sums of the drawn velocities; the draws use our own integer-to-real mapping of
// mt19937_64), so every MPI rank can follow every particle without communicating.
// Complexity: O(N) per iteration, O(N) memory.
#pragma once

#include <cstdint>
#include <vector>

namespace redist::experiments {

inline constexpr std::int64_t kMaxParticles = 10'000'000;

struct ParticleSpec {
  std::int64_t particles = 10'000;  // N, 1..kMaxParticles
  std::uint64_t seed = 1;
  double max_velocity = 0.004;      // v, per iteration, in [0, 0.5]
  double hot_work = 10.0;           // the work at the hot spot, >= 1
  double hot_radius = 0.1;          // > 0
  std::int64_t orbit_period = 200;  // iterations per turn of the hot spot, >= 1
};

// InputError naming the field of ParticleSpec for a value out of its range.
void validate(const ParticleSpec& spec);

class ParticleSystem {
 public:
  // InputError naming the field of ParticleSpec for values out of their ranges.
  explicit ParticleSystem(const ParticleSpec& spec);

  // Moves every particle and the hot spot by one iteration.
  void advance();

  std::int64_t iteration() const { return iteration_; }  // iterations advanced so far
  std::int64_t size() const { return static_cast<std::int64_t>(x_.size()); }
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  // Every particle's work in the current iteration.
  std::vector<double> work() const;
  double hot_x() const;
  double hot_y() const;

 private:
  ParticleSpec spec_;
  std::int64_t iteration_ = 0;
  std::vector<double> x_, y_, vx_, vy_;
};

}  // namespace redist::experiments
