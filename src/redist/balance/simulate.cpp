#include "redist/balance/simulate.hpp"

#include <map>
#include <string>
#include <utility>

#include "redist/balance/oracle.hpp"
#include "redist/balance/policy.hpp"
#include "redist/balance/targets.hpp"

namespace redist::balance {
namespace {

// Makespans of the redistributions planned so far, by (counts, targets).
class PlanCache {
 public:
  explicit PlanCache(const RingCosts& ring) : ring_(ring) {}
  double makespan(const std::vector<std::int64_t>& from, const std::vector<std::int64_t>& to) {
    auto key = std::make_pair(from, to);
    const auto it = plans_.find(key);
    if (it != plans_.end()) return it->second;
    const double m = redistribution_makespan(ring_, from, to);
    plans_.emplace(std::move(key), m);
    return m;
  }

 private:
  const RingCosts& ring_;
  std::map<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>, double> plans_;
};

SimulationResult run(const Trace& trace, Policy& policy) {
  SimulationResult result;
  result.iterations = trace.iterations();
  result.lower_bound = total_lower_bound(trace);
  const std::int64_t items = trace.items();
  PlanCache plans(trace.ring);
  std::vector<std::int64_t> counts = trace.initial_loads;
  for (std::int64_t t = 0; t < result.iterations; ++t) {
    const std::vector<double>& speeds = trace.speeds[static_cast<std::size_t>(t)];
    const double time = iteration_time(counts, speeds);
    result.iteration_times.push_back(time);
    result.compute_time += time;
    if (t + 1 == result.iterations) break;
    std::vector<std::int64_t> targets = balanced_targets(items, speeds);
    const std::vector<double> loads = as_loads(counts), target_loads = as_loads(targets);
    Step step;
    step.after_iteration = t + 1;
    step.iterations = result.iterations;
    step.loads = &loads;
    step.speeds = &speeds;
    step.targets = &target_loads;
    step.iteration_time = time;
    step.balanced_time = iteration_time(targets, speeds);
    step.bound_time = balanced_time_bound(items, speeds);
    step.plan_makespan = [&] { return plans.makespan(counts, targets); };
    if (!policy.decide(step).rebalance) continue;
    const double makespan = plans.makespan(counts, targets);
    result.redistribution_time += makespan;
    policy.rebalanced(step);
    counts = targets;
    result.rebalances.push_back({t + 1, std::move(targets), makespan});
  }
  result.total_time = result.compute_time + result.redistribution_time;
  return result;
}

}  // namespace

SimulationResult simulate(const Trace& trace, std::string_view policy) {
  validate_trace(trace);
  if (policy == "oracle") return hindsight_optimum(trace);
  const std::unique_ptr<Policy> chosen = make_policy(policy, trace.iterations());
  SimulationResult result = run(trace, *chosen);
  result.policy = std::string(policy);
  return result;
}

SimulationResult simulate_points(const Trace& trace, const std::vector<std::int64_t>& points) {
  validate_trace(trace);
  const std::unique_ptr<Policy> chosen = make_at_policy(points, trace.iterations());
  SimulationResult result = run(trace, *chosen);
  result.policy = chosen->name();
  return result;
}

}  // namespace redist::balance
