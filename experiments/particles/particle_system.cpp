#include "experiments/particles/particle_system.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

// A double in [0, 1) from the top 53 bits of a draw: the same on every platform.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

void require(bool ok, const char* field, const std::string& what) {
  if (!ok) throw InputError(what, field);
}

}  // namespace

void validate(const ParticleSpec& s) {
  require(s.particles >= 1 && s.particles <= kMaxParticles, "particles",
          fmt::format("{} particles: between 1 and {}", s.particles, kMaxParticles));
  require(std::isfinite(s.max_velocity) && s.max_velocity >= 0 && s.max_velocity <= 0.5,
          "max_velocity", "the largest velocity must be in [0, 0.5]");
  require(std::isfinite(s.hot_work) && s.hot_work >= 1 && s.hot_work <= 1e6, "hot_work",
          "the work at the hot spot must be in [1, 1e6]");
  require(std::isfinite(s.hot_radius) && s.hot_radius > 0 && s.hot_radius <= 10, "hot_radius",
          "the hot spot's radius must be in (0, 10]");
  require(s.orbit_period >= 1, "orbit_period", "the hot spot's period must be >= 1 iteration");
}

namespace {

// One coordinate moved by its velocity, bounced off the walls 0 and 1.
void bounce(double& position, double& velocity) {
  position += velocity;
  if (position < 0) position = -position, velocity = -velocity;
  if (position > 1) position = 2 - position, velocity = -velocity;
}

}  // namespace

ParticleSystem::ParticleSystem(const ParticleSpec& spec) : spec_(spec) {
  validate(spec);
  std::mt19937_64 rng(spec.seed);
  const auto n = static_cast<std::size_t>(spec.particles);
  x_.resize(n), y_.resize(n), vx_.resize(n), vy_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    x_[i] = unit(rng);
    y_[i] = unit(rng);
    vx_[i] = spec.max_velocity * (2 * unit(rng) - 1);
    vy_[i] = spec.max_velocity * (2 * unit(rng) - 1);
  }
}

void ParticleSystem::advance() {
  for (std::size_t i = 0; i < x_.size(); ++i) {
    bounce(x_[i], vx_[i]);
    bounce(y_[i], vy_[i]);
  }
  ++iteration_;
}

double ParticleSystem::hot_x() const {
  const double turn = static_cast<double>(iteration_ % spec_.orbit_period) /
                      static_cast<double>(spec_.orbit_period);
  return 0.5 + 0.3 * std::cos(2 * std::numbers::pi * turn);
}

double ParticleSystem::hot_y() const {
  const double turn = static_cast<double>(iteration_ % spec_.orbit_period) /
                      static_cast<double>(spec_.orbit_period);
  return 0.5 + 0.3 * std::sin(2 * std::numbers::pi * turn);
}

std::vector<double> ParticleSystem::work() const {
  const double hx = hot_x(), hy = hot_y(), r2 = spec_.hot_radius * spec_.hot_radius;
  std::vector<double> w(x_.size());
  for (std::size_t i = 0; i < x_.size(); ++i) {
    const double d2 = (x_[i] - hx) * (x_[i] - hx) + (y_[i] - hy) * (y_[i] - hy);
    w[i] = 1 + (spec_.hot_work - 1) * std::exp(-d2 / r2);
  }
  return w;
}

}  // namespace redist::experiments
