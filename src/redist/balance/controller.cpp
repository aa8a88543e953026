#include "redist/balance/controller.hpp"

#include <utility>

#include "redist/balance/targets.hpp"

namespace redist::balance {
namespace {

// The decider's verdict as the ring's decision, with the counts and targets as integers.
RebalanceDecision decision_of(Verdict v, std::vector<std::int64_t> counts,
                              std::vector<std::int64_t> targets) {
  RebalanceDecision d;
  d.after_iteration = v.after_iteration;
  d.rebalance = v.rebalance;
  d.reason = std::move(v.reason);
  d.predicted_saving = v.predicted_saving;
  d.planned = v.planned;
  d.plan_makespan = v.migration_cost;
  d.cost_factor = v.cost_factor;
  d.iteration_time = v.iteration_time;
  d.measured_time = v.measured_time;
  d.balanced_time = v.balanced_time;
  d.bound_time = v.bound_time;
  d.consulted = v.consulted;
  d.counts = std::move(counts);
  d.targets = std::move(targets);
  d.speeds = std::move(v.speeds);
  return d;
}

// The verdict that decision d stands for (what the policy saw).
Verdict verdict_of(const RebalanceDecision& d) {
  Verdict v;
  v.after_iteration = d.after_iteration;
  v.consulted = d.consulted;
  v.iteration_time = d.iteration_time;
  v.balanced_time = d.balanced_time;
  v.bound_time = d.bound_time;
  v.loads = as_loads(d.counts);
  v.targets = as_loads(d.targets);
  v.speeds = d.speeds;
  return v;
}

}  // namespace

RebalanceController::RebalanceController(RingCosts ring, std::unique_ptr<Policy> policy,
                                         std::int64_t iterations, RebalanceSettings settings)
    : ring_(std::move(ring)), decider_(ring_.size(), std::move(policy), iterations, settings) {}

RebalanceDecision RebalanceController::decide(const std::vector<std::int64_t>& counts,
                                              const std::vector<double>& work,
                                              const std::vector<double>& seconds) {
  Observation observation;
  observation.loads = as_loads(counts);
  observation.seconds = seconds;
  observation.work = work;
  const std::vector<double> speeds = decider_.observe(observation);
  std::vector<std::int64_t> targets = counts;
  Proposal proposal;
  if (!speeds.empty()) {
    std::int64_t items = 0;
    for (std::int64_t c : counts) items += c;
    targets = balanced_targets(items, speeds);
    proposal.loads = as_loads(targets);
    // The exact N (a sum of doubles would round above 2^53) and, when the targets differ from the
    // counts, their model time (equal doubles could stand for different large counts).
    proposal.bound_time = balanced_time_bound(items, speeds);
    if (targets != counts) proposal.balanced_time = iteration_time(targets, speeds);
    proposal.migration_cost = [&] { return redistribution_makespan(ring_, counts, targets); };
  }
  Verdict verdict = decider_.decide(proposal);  // before `targets` moves: the plan reads it
  return decision_of(std::move(verdict), counts, std::move(targets));
}

void RebalanceController::redistributed(double planned, double measured) {
  decider_.migrated(planned, measured);
}

double RebalanceController::cost_factor() const { return decider_.cost_factor(); }

void RebalanceController::rebalanced(const RebalanceDecision& d) {
  decider_.rebalanced(verdict_of(d));
}

}  // namespace redist::balance
