// The costs a rebalancing decision weighs, for a recorded run of the particle application
// (recording.hpp): the time of every iteration under every partition the run could be in, and the
// cost of every migration between two proposed partitions, planned by the exchange family on a
// one-port platform. The policies (balance/decider.hpp) and the hindsight optimum
// (balance/hindsight.hpp) are evaluated on these.
//
// Iteration t (1..K) under partition j (0..K-1, j < t; partition t is proposed from iteration t's
// work, for the iterations after it) lasts max_r L_r(j, t) w / s_r(t) seconds (w = work_seconds):
// L_r the work of the particles partition j gives rank r, in iteration t (particle_system.hpp),
// s_r(t) the recorded speed. The migration from partition j to partition k moves every particle
// whose owner changes, `particle_bytes` each, as one message per pair of ranks; its cost is the
// makespan of the exchange plan `auto` with the platform's per-rank bandwidths (the same both
// ways) and latency.
// Complexity: construction O(K^2 N / 2 + K N) for N particles (every load, once); each migration
// O(N) to build and one plan, cached.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "experiments/particles/recording.hpp"
#include "redist/exchange/model.hpp"

namespace redist::experiments {

// The machine a recording is replayed on.
struct ReplayPlatform {
  std::vector<double> bandwidth;  // per rank, bytes per second, the same both ways
  double latency = 0.0;           // seconds per piece
  std::int64_t particle_bytes = 1024;
  double work_seconds = 1.0;  // seconds a unit of work takes at speed 1
};

class PartitionCosts {
 public:
  // InputError for a platform whose sizes disagree with the recording or whose values are not
  // finite and > 0 (latency >= 0).
  PartitionCosts(const PartitionRecording& recording, ReplayPlatform platform);

  std::int64_t iterations() const { return iterations_; }
  std::int64_t ranks() const { return ranks_; }
  const ReplayPlatform& platform() const { return platform_; }
  // Per rank: the work partition j gives it in iteration t (0 <= j <= t <= K, j < K; j = t: the
  // iteration whose work the proposal balanced).
  const std::vector<double>& loads(std::int64_t partition, std::int64_t iteration) const;
  const std::vector<double>& speeds(std::int64_t iteration) const;
  double iteration_time(std::int64_t partition, std::int64_t iteration) const;
  // Total work over total speed: the time of iteration t if the work were divisible.
  double bound_time(std::int64_t iteration) const;
  // The migration from partition `from` to partition `to` (from < to), and its planned cost.
  exchange::Instance migration(std::int64_t from, std::int64_t to) const;
  double migration_cost(std::int64_t from, std::int64_t to);

 private:
  std::int64_t iterations_ = 0, ranks_ = 0;
  const PartitionRecording* recording_;
  ReplayPlatform platform_;
  std::vector<std::vector<double>> loads_;  // [index(j, t)][r], t = 1..K, j = 0..min(t, K - 1)
  std::vector<double> total_work_;          // [t - 1]
  std::map<std::pair<std::int64_t, std::int64_t>, double> costs_;
  std::size_t index(std::int64_t partition, std::int64_t iteration) const;
};

}  // namespace redist::experiments
