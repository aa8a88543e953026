#include "experiments/particles/policy_replay.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "redist/balance/hindsight.hpp"
#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

// Proposals that balance each iteration's work by speed, greedily (a stand-in for a partitioner:
// the replay does not care who proposed).
PartitionRecording greedy_recording(std::uint64_t seed, std::int64_t ranks, std::int64_t k) {
  PartitionRecording r;
  r.particles.particles = 400;
  r.particles.seed = seed;
  r.particles.max_velocity = 0.02;
  r.ranks = ranks;
  r.partitioner = "greedy";
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> speed(22, 172);
  ParticleSystem system(r.particles);
  for (std::int64_t t = 0; t < k; ++t) {
    r.speeds.emplace_back();
    for (std::int64_t q = 0; q < ranks; ++q) r.speeds.back().push_back(speed(rng));
    const std::vector<double>& s = r.speeds[static_cast<std::size_t>(t == 0 ? 0 : t - 1)];
    const std::vector<double> work = system.work();
    std::vector<double> finish(static_cast<std::size_t>(ranks), 0.0);
    r.proposals.emplace_back();
    for (const double w : work) {  // each particle to the rank that would finish it first
      std::size_t best = 0;
      for (std::size_t q = 1; q < finish.size(); ++q)
        if ((finish[q] + w) / s[q] < (finish[best] + w) / s[best]) best = q;
      finish[best] += w;
      r.proposals.back().push_back(static_cast<std::int32_t>(best));
    }
    if (t > 0) system.advance();
  }
  return r;
}

ReplayPlatform platform(std::int64_t ranks, std::int64_t bytes) {
  ReplayPlatform p;
  for (std::int64_t q = 0; q < ranks; ++q) p.bandwidth.push_back(1e5 * static_cast<double>(q + 1));
  p.particle_bytes = bytes;
  p.work_seconds = 1e-3;
  return p;
}

TEST(PolicyReplay, NoPolicyBeatsTheOracleAndTotalsAddUp) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::int64_t ranks = 3 + static_cast<std::int64_t>(seed % 3), k = 25;
    const PartitionRecording r = greedy_recording(seed, ranks, k);
    PartitionCosts costs(r, platform(ranks, seed % 2 ? 64 : 4096));
    const PolicyReplay oracle = replay_oracle(costs);
    for (const char* spec :
         {"never", "every:5", "threshold:1.05", "threshold:1.35/window:3/cooldown:10",
          "cost-benefit", "period-rule", "stable-horizon", "replay", "hedged-replay"}) {
      const PolicyReplay run = replay_policy(costs, spec);
      EXPECT_GE(run.total_time, oracle.total_time * (1 - 1e-12)) << spec << " seed " << seed;
      const balance::HindsightSchedule same = balance::schedule_of_points(
          k, run.points,
          [&costs](std::int64_t j, std::int64_t t) { return costs.iteration_time(j, t); },
          [&costs](std::int64_t j, std::int64_t t) { return costs.migration_cost(j, t); });
      EXPECT_NEAR(run.total_time, same.total_time, 1e-9 * same.total_time) << spec;
    }
    const PolicyReplay never = replay_policy(costs, "never");
    EXPECT_TRUE(never.points.empty());
    double expected = 0;
    for (std::int64_t t = 1; t <= k; ++t) expected += costs.iteration_time(0, t);
    EXPECT_DOUBLE_EQ(never.total_time, expected);
    EXPECT_EQ(replay_policy(costs, "every:5").points, (std::vector<std::int64_t>{5, 10, 15, 20}));
  }
}

// Checks that a foresight run rebalanced exactly where the saving over the horizon H(j, t)
// exceeds the migration and adds up as a schedule of its points; returns its rebalances.
template <class Horizon>
std::int64_t check_foresight(PartitionCosts& costs, const PolicyReplay& run,
                             const Horizon& horizon) {
  const std::int64_t k = costs.iterations();
  std::int64_t partition = 0;
  std::size_t next = 0;
  for (std::int64_t t = 1; t < k; ++t) {
    double saving = 0;
    for (std::int64_t u = t + 1; u <= std::min(k, t + horizon(partition, t)); ++u)
      saving += costs.iteration_time(partition, u) - costs.iteration_time(t, u);
    const bool pays = saving > 0 && saving > costs.migration_cost(partition, t);
    const bool made = next < run.points.size() && run.points[next] == t;
    EXPECT_EQ(made, pays) << run.policy << " t " << t;
    if (made) partition = t, ++next;
  }
  EXPECT_EQ(next, run.points.size()) << run.policy;
  const balance::HindsightSchedule same = balance::schedule_of_points(
      k, run.points,
      [&costs](std::int64_t j, std::int64_t t) { return costs.iteration_time(j, t); },
      [&costs](std::int64_t j, std::int64_t t) { return costs.migration_cost(j, t); });
  EXPECT_NEAR(run.total_time, same.total_time, 1e-9 * same.total_time) << run.policy;
  return static_cast<std::int64_t>(run.points.size());
}

// The foresight rules, with fixed horizons and with multiples of the payback time, rebalance
// exactly where their known saving exceeds the migration and never beat the optimum.
TEST(PolicyReplay, ForesightRebalancesWhereItsKnownSavingExceedsTheMigration) {
  std::int64_t rebalances = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::int64_t ranks = 3 + static_cast<std::int64_t>(seed % 3), k = 25;
    const PartitionRecording r = greedy_recording(seed, ranks, k);  // costs keep a reference
    ReplayPlatform fast = platform(ranks, seed % 2 ? 64 : 4096);
    for (double& bandwidth : fast.bandwidth) bandwidth *= 1e3;  // migrations of a few iterations
    PartitionCosts costs(r, fast);
    const double oracle = replay_oracle(costs).total_time;
    for (const std::int64_t horizon : {1, 3, 10, 25}) {
      const PolicyReplay run = replay_foresight(costs, horizon);
      EXPECT_EQ(run.policy, "foresight:" + std::to_string(horizon));
      EXPECT_GE(run.total_time, oracle * (1 - 1e-12)) << horizon << " seed " << seed;
      rebalances += check_foresight(costs, run, [horizon](auto, auto) { return horizon; });
    }
    for (const double multiple : {0.5, 2.0, 6.0}) {
      const PolicyReplay run = replay_foresight_payback(costs, multiple);
      EXPECT_GE(run.total_time, oracle * (1 - 1e-12)) << multiple << " seed " << seed;
      rebalances += check_foresight(costs, run, [&](std::int64_t j, std::int64_t t) {
        const double gain = costs.iteration_time(j, t) - costs.iteration_time(t, t);
        if (!(gain > 0)) return std::int64_t{1};
        const double h = std::ceil(multiple * costs.migration_cost(j, t) / gain);
        return static_cast<std::int64_t>(std::clamp(h, 1.0, static_cast<double>(k)));
      });
    }
  }
  EXPECT_GT(rebalances, 40);  // the rules were exercised
}

TEST(PolicyReplay, UnknownPolicyIsAnInputError) {
  const PartitionRecording r = greedy_recording(1, 3, 4);
  PartitionCosts costs(r, platform(3, 64));
  EXPECT_THROW(replay_policy(costs, "sometimes"), InputError);
  EXPECT_THROW(replay_policy(costs, "oracle"), InputError);
}

}  // namespace
}  // namespace redist::experiments
