#include "experiments/particles/partition_costs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/planner.hpp"

namespace redist::experiments {
namespace {

void validate_platform(const ReplayPlatform& p, std::int64_t ranks) {
  if (static_cast<std::int64_t>(p.bandwidth.size()) != ranks) {
    throw InputError(fmt::format("{} bandwidths for {} ranks", p.bandwidth.size(), ranks),
                     "bandwidth");
  }
  for (std::size_t r = 0; r < p.bandwidth.size(); ++r) {
    if (!std::isfinite(p.bandwidth[r]) || p.bandwidth[r] <= 0) {
      throw InputError("a bandwidth must be a finite number > 0", fmt::format("bandwidth[{}]", r));
    }
  }
  if (!std::isfinite(p.latency) || p.latency < 0) {
    throw InputError("the latency must be a finite number >= 0", "latency");
  }
  if (!std::isfinite(p.work_seconds) || p.work_seconds <= 0 || p.work_seconds > 1e6) {
    throw InputError("the seconds of a unit of work must be in (0, 1e6]", "work_seconds");
  }
  if (p.particle_bytes < 1 || p.particle_bytes > (std::int64_t{1} << 40)) {
    throw InputError("a particle's bytes must be in 1..2^40", "particle_bytes");
  }
}

}  // namespace

PartitionCosts::PartitionCosts(const PartitionRecording& recording, ReplayPlatform platform)
    : iterations_(recording.iterations()),
      ranks_(recording.ranks),
      recording_(&recording),
      platform_(std::move(platform)) {
  validate(recording);
  validate_platform(platform_, ranks_);
  loads_.resize(index(iterations_ - 1, iterations_) + 1);
  ParticleSystem system(recording.particles);
  for (std::int64_t t = 1; t <= iterations_; ++t, system.advance()) {
    const std::vector<double> work = system.work();
    total_work_.push_back(std::accumulate(work.begin(), work.end(), 0.0));
    for (std::int64_t j = 0; j <= std::min(t, iterations_ - 1); ++j) {
      std::vector<double>& load = loads_[index(j, t)];
      load.assign(static_cast<std::size_t>(ranks_), 0.0);
      const std::vector<std::int32_t>& owner = recording.proposals[static_cast<std::size_t>(j)];
      for (std::size_t i = 0; i < work.size(); ++i)
        load[static_cast<std::size_t>(owner[i])] += work[i];
    }
  }
}

// Iteration t's loads start after those of iterations 1..t-1 (u + 1 partitions each).
std::size_t PartitionCosts::index(std::int64_t j, std::int64_t t) const {
  if (t < 1 || t > iterations_ || j < 0 || j > t || j >= iterations_) {
    throw std::out_of_range(fmt::format("no partition {} in iteration {}", j, t));
  }
  const auto tt = static_cast<std::size_t>(t);
  return (tt - 1) * (tt + 2) / 2 + static_cast<std::size_t>(j);
}

const std::vector<double>& PartitionCosts::loads(std::int64_t j, std::int64_t t) const {
  return loads_[index(j, t)];
}

const std::vector<double>& PartitionCosts::speeds(std::int64_t t) const {
  (void)index(0, t);
  return recording_->speeds[static_cast<std::size_t>(t - 1)];
}

double PartitionCosts::iteration_time(std::int64_t j, std::int64_t t) const {
  const std::vector<double>& load = loads(j, t);
  const std::vector<double>& s = speeds(t);
  double time = 0.0;
  for (std::size_t r = 0; r < load.size(); ++r) time = std::max(time, load[r] / s[r]);
  return time * platform_.work_seconds;
}

double PartitionCosts::bound_time(std::int64_t t) const {
  const std::vector<double>& s = speeds(t);
  return total_work_[static_cast<std::size_t>(t - 1)] * platform_.work_seconds /
         std::accumulate(s.begin(), s.end(), 0.0);
}

exchange::Instance PartitionCosts::migration(std::int64_t from, std::int64_t to) const {
  if (from < 0 || to <= from || to >= iterations_) {
    throw std::out_of_range(fmt::format("no migration from partition {} to {}", from, to));
  }
  const auto p = static_cast<std::size_t>(ranks_);
  std::vector<std::int64_t> count(p * p, 0);
  const auto& a = recording_->proposals[static_cast<std::size_t>(from)];
  const auto& b = recording_->proposals[static_cast<std::size_t>(to)];
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) ++count[static_cast<std::size_t>(a[i]) * p + static_cast<std::size_t>(b[i])];
  }
  exchange::Instance in;
  in.nodes = ranks_;
  for (std::size_t q = 0; q < p * p; ++q) {
    if (count[q] > 0) {
      in.messages.push_back({static_cast<std::int64_t>(q / p), static_cast<std::int64_t>(q % p),
                             count[q] * platform_.particle_bytes});
    }
  }
  in.send_bandwidth = platform_.bandwidth;
  in.recv_bandwidth = platform_.bandwidth;
  in.latency = platform_.latency;
  return in;
}

double PartitionCosts::migration_cost(std::int64_t from, std::int64_t to) {
  const auto key = std::make_pair(from, to);
  if (auto it = costs_.find(key); it != costs_.end()) return it->second;
  const exchange::Instance in = migration(from, to);
  const double cost = in.messages.empty() ? 0.0 : exchange::plan(in).makespan;
  costs_.emplace(key, cost);
  return cost;
}

}  // namespace redist::experiments
