#include "experiments/particles/policy_replay.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/decider.hpp"
#include "redist/balance/hindsight.hpp"
#include "redist/balance/policy.hpp"

namespace redist::experiments {
namespace {

balance::Observation observe(const PartitionCosts& costs, std::int64_t partition, std::int64_t t) {
  balance::Observation o;
  o.loads = costs.loads(partition, t);
  const std::vector<double>& speeds = costs.speeds(t);
  const double w = costs.platform().work_seconds;
  for (std::size_t r = 0; r < o.loads.size(); ++r) o.seconds.push_back(o.loads[r] * w / speeds[r]);
  return o;
}

}  // namespace

PolicyReplay replay_policy(PartitionCosts& costs, std::string_view spec) {
  const std::int64_t k = costs.iterations();
  balance::RebalanceDecider decider(static_cast<std::size_t>(costs.ranks()),
                                    balance::make_policy(spec, k), k);
  PolicyReplay run{decider.policy().name(), {}};
  std::int64_t partition = 0;
  for (std::int64_t t = 1; t <= k; ++t) {
    run.iterations_time += costs.iteration_time(partition, t);
    if (t == k) break;
    balance::Proposal proposal;
    proposal.loads = costs.loads(t, t);
    proposal.migration_cost = [&costs, partition, t] { return costs.migration_cost(partition, t); };
    const balance::Verdict v = decider.decide(observe(costs, partition, t), proposal);
    if (!v.rebalance) continue;
    const double cost = costs.migration_cost(partition, t);
    run.migrations_time += cost;
    run.points.push_back(t);
    decider.rebalanced(v);
    if (v.planned) decider.migrated(v.migration_cost, cost);
    partition = t;
  }
  run.total_time = run.iterations_time + run.migrations_time;
  return run;
}

namespace {

// The foresight rule with the horizon H(j, t) of each decision.
template <class Horizon>
PolicyReplay foresight(PartitionCosts& costs, std::string name, const Horizon& horizon) {
  const std::int64_t k = costs.iterations();
  PolicyReplay run{std::move(name), {}};
  std::int64_t partition = 0;
  for (std::int64_t t = 1; t <= k; ++t) {
    run.iterations_time += costs.iteration_time(partition, t);
    if (t == k) break;
    const std::int64_t h = horizon(partition, t);
    double saving = 0.0;
    for (std::int64_t u = t + 1; u <= std::min(k, t + h); ++u)
      saving += costs.iteration_time(partition, u) - costs.iteration_time(t, u);
    if (!(saving > 0.0)) continue;
    const double cost = costs.migration_cost(partition, t);
    if (!(saving > cost)) continue;
    run.migrations_time += cost;
    run.points.push_back(t);
    partition = t;
  }
  run.total_time = run.iterations_time + run.migrations_time;
  return run;
}

}  // namespace

PolicyReplay replay_foresight(PartitionCosts& costs, std::int64_t horizon) {
  return foresight(costs, fmt::format("foresight:{}", horizon),
                   [horizon](std::int64_t, std::int64_t) { return horizon; });
}

PolicyReplay replay_foresight_payback(PartitionCosts& costs, double multiple) {
  const std::int64_t k = costs.iterations();
  return foresight(costs, fmt::format("foresight-payback:{}", multiple),
                   [&costs, multiple, k](std::int64_t j, std::int64_t t) -> std::int64_t {
                     const double gain = costs.iteration_time(j, t) - costs.iteration_time(t, t);
                     if (!(gain > 0.0)) return 1;
                     const double h = std::ceil(multiple * costs.migration_cost(j, t) / gain);
                     return h < static_cast<double>(k)
                                ? std::max<std::int64_t>(1, static_cast<std::int64_t>(h))
                                : k;
                   });
}

PolicyReplay replay_oracle(PartitionCosts& costs) {
  const balance::HindsightSchedule s = balance::best_rebalance_points(
      costs.iterations(),
      [&costs](std::int64_t j, std::int64_t t) { return costs.iteration_time(j, t); },
      [&costs](std::int64_t j, std::int64_t t) { return costs.migration_cost(j, t); });
  return {"oracle", s.points, s.total_time, s.iterations_time, s.migrations_time};
}

}  // namespace redist::experiments
