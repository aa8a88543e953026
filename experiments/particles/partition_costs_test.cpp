#include "experiments/particles/partition_costs.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "experiments/particles/particle_system.hpp"
#include "experiments/particles/recording.hpp"
#include "redist/common/error.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::experiments {
namespace {

// A recording with random proposals (not a partitioner's; the costs do not care).
PartitionRecording random_recording(std::uint64_t seed, std::int64_t ranks, std::int64_t k) {
  PartitionRecording r;
  r.particles.particles = 300;
  r.particles.seed = seed;
  r.ranks = ranks;
  r.partitioner = "random";
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> owner(0, static_cast<std::int32_t>(ranks - 1));
  std::uniform_real_distribution<double> speed(22, 172);
  for (std::int64_t t = 0; t < k; ++t) {
    r.speeds.emplace_back();
    for (std::int64_t q = 0; q < ranks; ++q) r.speeds.back().push_back(speed(rng));
    r.proposals.emplace_back();
    for (std::int64_t i = 0; i < r.particles.particles; ++i) {
      // Half the proposals keep the previous owners of most particles.
      const bool keep = t > 0 && (t % 2 == 0) && owner(rng) != 0;
      r.proposals.back().push_back(keep ? r.proposals[t - 1][i] : owner(rng));
    }
  }
  return r;
}

ReplayPlatform platform(std::int64_t ranks) {
  ReplayPlatform p;
  for (std::int64_t q = 0; q < ranks; ++q) p.bandwidth.push_back(1e6 * static_cast<double>(q + 1));
  p.particle_bytes = 4096;
  return p;
}

TEST(ParticleSystem, StaysInTheSquareWithWorkBetweenOneAndTheHotSpots) {
  ParticleSpec spec;
  spec.particles = 2000;
  spec.max_velocity = 0.05;
  ParticleSystem a(spec), b(spec);
  for (int t = 0; t < 50; ++t) a.advance(), b.advance();
  EXPECT_EQ(a.x(), b.x());  // deterministic
  for (std::int64_t i = 0; i < a.size(); ++i) {
    EXPECT_GE(a.x()[i], 0.0);
    EXPECT_LE(a.x()[i], 1.0);
    EXPECT_GE(a.y()[i], 0.0);
    EXPECT_LE(a.y()[i], 1.0);
  }
  const std::vector<double> w = a.work();
  EXPECT_GE(*std::min_element(w.begin(), w.end()), 1.0);
  EXPECT_LE(*std::max_element(w.begin(), w.end()), spec.hot_work);
  EXPECT_GT(*std::max_element(w.begin(), w.end()), 5.0);  // some particles are near the spot
  ParticleSystem c(spec);
  EXPECT_NE(c.hot_x(), a.hot_x());  // the spot moved
}

TEST(ParticleSystem, RefusesSpecsOutOfRange) {
  ParticleSpec s;
  s.particles = 0;
  EXPECT_THROW(validate(s), InputError);
  s = {};
  s.hot_work = 0.5;
  EXPECT_THROW(validate(s), InputError);
  s = {};
  s.max_velocity = std::nan("");
  EXPECT_THROW(validate(s), InputError);
  s = {};
  s.orbit_period = 0;
  EXPECT_THROW(validate(s), InputError);
}

TEST(PartitionRecording, RoundTripsThroughJsonAndRefusesBadOwners) {
  const PartitionRecording r = random_recording(3, 4, 6);
  const PartitionRecording back = recording_from_json(to_json(r));
  EXPECT_EQ(back.proposals, r.proposals);
  EXPECT_EQ(back.speeds, r.speeds);
  EXPECT_EQ(back.particles.seed, r.particles.seed);
  PartitionRecording bad = r;
  bad.proposals[2][17] = 4;
  try {
    validate(bad);
    FAIL() << "owner 4 of 4 ranks accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "particle_recording.proposals[2][17]");
  }
  bad = r;
  bad.proposals.pop_back();
  EXPECT_THROW(validate(bad), InputError);
  bad = r;
  bad.speeds[1][0] = 0;
  EXPECT_THROW(validate(bad), InputError);
  EXPECT_THROW(recording_from_json("{\"particle_recording\": {\"ranks\": 2}}"), InputError);
  EXPECT_THROW(recording_from_json("[1, 2"), InputError);
}

TEST(PartitionCosts, LoadsAddUpAndMigrationsMoveWhatChangesOwner) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::int64_t ranks = 2 + static_cast<std::int64_t>(seed % 5), k = 6;
    const PartitionRecording r = random_recording(seed, ranks, k);
    PartitionCosts costs(r, platform(ranks));
    ParticleSystem system(r.particles);
    for (std::int64_t t = 1; t <= k; ++t, system.advance()) {
      const std::vector<double> w = system.work();
      const double total = std::accumulate(w.begin(), w.end(), 0.0);
      for (std::int64_t j = 0; j <= std::min(t, k - 1); ++j) {
        const auto& load = costs.loads(j, t);
        EXPECT_NEAR(std::accumulate(load.begin(), load.end(), 0.0), total, 1e-9 * total);
        EXPECT_GE(costs.iteration_time(j, t), costs.bound_time(t) * (1 - 1e-12));
      }
    }
    for (std::int64_t j = 0; j + 1 < k; ++j) {
      for (std::int64_t m = j + 1; m < k; ++m) {
        const exchange::Instance in = costs.migration(j, m);
        std::int64_t moved = 0;
        for (std::size_t i = 0; i < r.proposals[j].size(); ++i)
          moved += r.proposals[j][i] != r.proposals[m][i];
        std::int64_t bytes = 0;
        for (const auto& msg : in.messages) bytes += msg.bytes;
        EXPECT_EQ(bytes, moved * 4096);
        const double cost = costs.migration_cost(j, m);
        EXPECT_GE(cost, in.messages.empty() ? 0.0 : exchange::bounds(in).lower_bound * (1 - 1e-12));
        EXPECT_EQ(cost, costs.migration_cost(j, m));  // cached
      }
    }
  }
}

TEST(PartitionCosts, RefusesAPlatformThatDoesNotFit) {
  const PartitionRecording r = random_recording(1, 3, 3);
  ReplayPlatform p = platform(2);
  EXPECT_THROW(PartitionCosts(r, p), InputError);
  p = platform(3);
  p.bandwidth[1] = 0;
  EXPECT_THROW(PartitionCosts(r, p), InputError);
  p = platform(3);
  p.latency = -1;
  EXPECT_THROW(PartitionCosts(r, p), InputError);
  PartitionCosts costs(r, platform(3));
  EXPECT_THROW(costs.loads(3, 3), std::out_of_range);  // no partition after the last iteration
  EXPECT_THROW(costs.loads(2, 1), std::out_of_range);
  EXPECT_NO_THROW(costs.loads(2, 2));
  EXPECT_THROW(costs.migration(2, 2), std::out_of_range);
}

}  // namespace
}  // namespace redist::experiments
