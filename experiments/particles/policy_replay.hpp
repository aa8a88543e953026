// Rebalancing policies replayed on a recorded particle run (partition_costs.hpp), against the
// hindsight optimum (balance/hindsight.hpp): the decision loop of an application that uses
// balance::RebalanceDecider with its partitioner, with the model's times.
//
// After every iteration t < K, the application reports each rank's load under its current
// partition j and the time it took (load / speed), and proposes partition t (its loads in
// iteration t, what the partitioner balanced) with the planned migration j -> t as its cost; on a
// rebalance the migration's planned makespan is added and partition t is in force from iteration
// t + 1. The total is the sum of the iterations' times and the migrations' costs.
// Complexity: O(K p) per policy plus its migrations' plans and the policy's own work.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/particles/partition_costs.hpp"

namespace redist::experiments {

struct PolicyReplay {
  std::string policy;
  std::vector<std::int64_t> points;  // rebalanced after these iterations
  double total_time = 0.0, iterations_time = 0.0, migrations_time = 0.0;
};

// The policy named `spec` (balance::make_policy's names; InputError at "--policy" otherwise).
PolicyReplay replay_policy(PartitionCosts& costs, std::string_view spec);

// The hindsight optimum over every set of rebalance points, on the same costs (K^2 / 2
// migrations planned).
PolicyReplay replay_oracle(PartitionCosts& costs);

// Not an online policy: the rule that judges one proposal at a time, as the online policies do,
// but knows what it would save. After iteration t < K, under partition j, it rebalances when the
// exact saving over the next H iterations, sum over u = t+1..min(K, t+H) of T(j, u) - T(t, u),
// exceeds the planned migration j -> t, with H = `horizon` (>= 1), or, for
// replay_foresight_payback, H = ceil(`multiple` x m / g) (>= 1): `multiple` times the payback time
// of the migration m at the immediate gain g = T(j, t) - T(t, t) > 0. A reference for what
// foreseeing a proposal's benefit is worth without weighing it against later proposals.
// Complexity: O(K H p) plus the plans of the migrations it considers.
PolicyReplay replay_foresight(PartitionCosts& costs, std::int64_t horizon);
PolicyReplay replay_foresight_payback(PartitionCosts& costs, double multiple);

}  // namespace redist::experiments
