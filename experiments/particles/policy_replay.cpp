#include "experiments/particles/policy_replay.hpp"

#include <algorithm>

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
  PolicyReplay run{decider.policy().name()};
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

PolicyReplay replay_foresight(PartitionCosts& costs, std::int64_t horizon) {
  const std::int64_t k = costs.iterations();
  PolicyReplay run{fmt::format("foresight:{}", horizon)};
  std::int64_t partition = 0;
  for (std::int64_t t = 1; t <= k; ++t) {
    run.iterations_time += costs.iteration_time(partition, t);
    if (t == k) break;
    double saving = 0.0;
    for (std::int64_t u = t + 1; u <= std::min(k, t + horizon); ++u)
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

PolicyReplay replay_oracle(PartitionCosts& costs) {
  const balance::HindsightSchedule s = balance::best_rebalance_points(
      costs.iterations(),
      [&costs](std::int64_t j, std::int64_t t) { return costs.iteration_time(j, t); },
      [&costs](std::int64_t j, std::int64_t t) { return costs.migration_cost(j, t); });
  return {"oracle", s.points, s.total_time, s.iterations_time, s.migrations_time};
}

}  // namespace redist::experiments
