#include "redist/balance/controller.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/targets.hpp"

namespace redist::balance {
namespace {

// The policy's Step for decision d (which must outlive it).
Step step_of(const RebalanceDecision& d, std::int64_t iterations) {
  Step step;
  step.after_iteration = d.after_iteration;
  step.iterations = iterations;
  step.counts = &d.counts;
  step.speeds = &d.speeds;
  step.targets = &d.targets;
  step.iteration_time = d.iteration_time;
  step.balanced_time = d.balanced_time;
  step.bound_time = d.bound_time;
  return step;
}

// Gives a processor never measured (speed <= 0) the mean of the others' speeds (a running mean:
// no overflow near 1e308).
void fill_unmeasured(std::vector<double>& speeds) {
  double mean = 0.0;
  double known = 0.0;
  for (double s : speeds) {
    if (s > 0) mean += (s - mean) / ++known;
  }
  for (double& s : speeds) {
    if (!(s > 0)) s = mean;
  }
}

}  // namespace

RebalanceController::RebalanceController(RingCosts ring, std::unique_ptr<Policy> policy,
                                         std::int64_t iterations, RebalanceSettings settings)
    : ring_(std::move(ring)),
      policy_(std::move(policy)),
      iterations_(iterations),
      settings_(settings),
      last_speeds_(ring_.size(), 0.0) {
  if (!policy_) throw std::invalid_argument("RebalanceController needs a policy");
  if (settings_.estimate_speeds)
    estimator_ = std::make_unique<SpeedEstimator>(ring_.size(), settings_.estimate);
}

std::vector<double> RebalanceController::measured_speeds(const std::vector<double>& work,
                                                         const std::vector<double>& seconds) {
  std::vector<double> speeds(work.size(), 0.0);
  for (std::size_t r = 0; r < work.size(); ++r) {
    if (work[r] > 0) last_speeds_[r] = work[r] / seconds[r];
    speeds[r] = last_speeds_[r];
  }
  return speeds;
}

// The speeds the policy sees; empty when no processor did work in this iteration.
std::vector<double> RebalanceController::speeds_of(const std::vector<double>& work,
                                                   const std::vector<double>& seconds) {
  for (std::size_t r = 0; r < work.size(); ++r) {
    const double s = work[r] / seconds[r];
    if (work[r] > 0 && !(std::isfinite(s) && s > 0))
      throw std::runtime_error(fmt::format("rank {}: the speed {} / {} is not a finite number > 0",
                                           r, work[r], seconds[r]));
  }
  std::vector<double> speeds;
  if (estimator_) {
    estimator_->update(work, seconds);
    speeds = estimator_->speeds();
  } else {
    speeds = measured_speeds(work, seconds);
  }
  if (std::none_of(work.begin(), work.end(), [](double w) { return w > 0; })) return {};
  fill_unmeasured(speeds);
  return speeds;
}

RebalanceDecision RebalanceController::decide(const std::vector<std::int64_t>& counts,
                                              const std::vector<double>& work,
                                              const std::vector<double>& seconds) {
  RebalanceDecision d;
  d.after_iteration = ++decisions_;
  d.counts = counts;
  d.targets = counts;
  for (double s : seconds) d.measured_time = std::max(d.measured_time, s);
  d.iteration_time = d.measured_time;
  d.speeds = speeds_of(work, seconds);
  if (d.speeds.empty()) {
    d.reason = "no rank reported work: no speed to balance for";
    return d;
  }
  std::int64_t items = 0;
  for (std::int64_t c : counts) items += c;
  d.targets = balanced_targets(items, d.speeds);
  if (estimator_) {
    // The model's times at the estimates, as in the simulator: no timing noise in T - T_bal.
    d.iteration_time = iteration_time(d.counts, d.speeds);
    d.balanced_time = iteration_time(d.targets, d.speeds);
  } else {
    // At the targets already, the balanced time is the measured one: computed from the speeds,
    // it could differ from it by rounding and show a gain of a few ulps that is not there.
    d.balanced_time =
        d.targets == d.counts ? d.iteration_time : iteration_time(d.targets, d.speeds);
  }
  d.bound_time = balanced_time_bound(items, d.speeds);
  if (d.after_iteration >= iterations_) {
    d.reason = "after the last iteration: nothing left to speed up";
    return d;
  }
  consult_policy(d);
  return d;
}

void RebalanceController::consult_policy(RebalanceDecision& d) {
  Step step = step_of(d, iterations_);
  d.cost_factor = cost_factor();
  double makespan = -1.0;  // planned once, on first request
  step.plan_makespan = [&] {
    if (makespan < 0) makespan = redistribution_makespan(ring_, d.counts, d.targets);
    return makespan * d.cost_factor;
  };
  const Decision decision = policy_->decide(step);
  d.consulted = true;
  d.rebalance = decision.rebalance;
  d.reason = decision.reason;
  d.predicted_saving = decision.predicted_saving;
  d.planned = decision.planned || makespan >= 0;
  d.plan_makespan = std::max(makespan, 0.0);
}

void RebalanceController::redistributed(double planned, double measured) {
  if (!(std::isfinite(planned) && std::isfinite(measured) && planned > 0 && measured >= 0)) return;
  planned_ += planned;
  measured_ += measured;
}

double RebalanceController::cost_factor() const {
  if (!(planned_ > 0)) return 1.0;
  const double kappa = measured_ / planned_;
  return kappa > 1.05 || kappa < 0.95 ? kappa : 1.0;
}

void RebalanceController::rebalanced(const RebalanceDecision& d) {
  if (d.consulted) policy_->rebalanced(step_of(d, iterations_));
}

}  // namespace redist::balance
