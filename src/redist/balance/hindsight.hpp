// The hindsight optimum for any partitioned application (ours; the ring's oracle.hpp is the same
// programme with the ring's distributions and planner): which iterations to rebalance after,
// knowing in advance what every iteration would cost under every partition and what every migration
// would cost, so as to finish first.
//
// Setting: iterations 1..K. Partition 0 is the initial one; a rebalance after iteration k
// (1 <= k <= K-1) moves to partition k, the one the partitioner proposes then (whatever partition
// was in force before), which stays until the next rebalance. iteration_time(j, t) is the time of
// iteration t under partition j (j < t), migration_cost(j, k) the time of moving from partition j
// to partition k (j < k). The total of a set of points is the sum of its iterations' times and its
// migrations' costs.
// Dynamic programme over the last rebalance point, run forward: best[k] = min over j < k of
// best[j] + sum_{t=j+1}^{k} iteration_time(j, t) + migration_cost(j, k); the optimum is the
// minimum over j of best[j] + sum_{t=j+1}^{K} iteration_time(j, t). Each segment is summed term by
// term (all terms >= 0: no difference of prefix sums, so a huge term loses no later one).
// Guarantee: the minimum over all 2^(K-1) sets of points, up to the rounding of sums of K terms
// (tested against brute force); among equal totals the earliest last rebalance point wins.
// Complexity: O(K^2) calls of each function and additions; memory O(K).
// Limits: 1 <= K <= kMaxHindsightIterations.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace redist::balance {

inline constexpr std::int64_t kMaxHindsightIterations = 20'000;

struct HindsightSchedule {
  std::vector<std::int64_t> points;  // rebalance after these iterations, increasing
  double total_time = 0.0;           // iterations plus migrations
  double iterations_time = 0.0;      // the iterations' share of total_time
  double migrations_time = 0.0;      // the migrations' share
};

using IterationTime = std::function<double(std::int64_t partition, std::int64_t iteration)>;
using MigrationCost = std::function<double(std::int64_t from, std::int64_t to)>;

// InputError at "iterations" for K out of 1..kMaxHindsightIterations; std::invalid_argument when
// a function returns a negative or non-finite number (naming it, j and t).
HindsightSchedule best_rebalance_points(std::int64_t iterations,
                                        const IterationTime& iteration_time,
                                        const MigrationCost& migration_cost);

// The same totals for given points (increasing, each in 1..K-1; InputError at "points"
// otherwise): what a policy's choice costs under the same functions.
HindsightSchedule schedule_of_points(std::int64_t iterations,
                                     const std::vector<std::int64_t>& points,
                                     const IterationTime& iteration_time,
                                     const MigrationCost& migration_cost);

}  // namespace redist::balance
