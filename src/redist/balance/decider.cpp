#include "redist/balance/decider.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/model.hpp"
#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

// Checks that `values` has one value per rank, each finite and >= `least` (> 0 when `positive`).
void check_values(const std::vector<double>& values, std::size_t ranks, const std::string& path,
                  bool positive) {
  if (values.size() != ranks)
    throw InputError(fmt::format("{} values for {} ranks", values.size(), ranks), path);
  for (std::size_t i = 0; i < ranks; ++i) {
    const double v = values[i];
    if (std::isfinite(v) && (positive ? v > 0 : v >= 0)) continue;
    throw InputError(fmt::format("must be a finite number {} 0, got {}", positive ? ">" : ">=", v),
                     fmt::format("{}[{}]", path, i));
  }
}

void check_observation(const Observation& o, std::size_t ranks) {
  check_values(o.loads, ranks, "loads", false);
  if (o.seconds.empty() == o.speeds.empty())
    throw InputError("give exactly one of the measured times (seconds) and the speeds",
                     o.seconds.empty() ? "seconds" : "speeds");
  if (!o.speeds.empty()) {
    if (!o.work.empty()) throw InputError("work goes with measured times, not speeds", "work");
    check_values(o.speeds, ranks, "speeds", true);
    return;
  }
  check_values(o.seconds, ranks, "seconds", false);
  if (!o.work.empty()) check_values(o.work, ranks, "work", false);
  const std::vector<double>& work = o.work.empty() ? o.loads : o.work;
  for (std::size_t r = 0; r < ranks; ++r) {
    const double s = work[r] / o.seconds[r];
    if (work[r] > 0 && !(std::isfinite(s) && s > 0))
      throw std::runtime_error(fmt::format("rank {}: the speed {} / {} is not a finite number > 0",
                                           r, work[r], o.seconds[r]));
  }
}

double checked_prediction(const std::optional<double>& value, const char* path) {
  if (!(std::isfinite(*value) && *value >= 0))
    throw InputError(fmt::format("must be a finite number >= 0, got {}", *value), path);
  return *value;
}

// Gives a rank never measured (speed <= 0) the mean of the others' speeds (a running mean: no
// overflow near 1e308).
void fill_unmeasured(std::vector<double>& speeds) {
  // Usually every rank is measured: then the mean (a chain of p dependent divisions) is not needed.
  if (std::all_of(speeds.begin(), speeds.end(), [](double s) { return s > 0; })) return;
  double mean = 0.0;
  double known = 0.0;
  for (double s : speeds) {
    if (s > 0) mean += (s - mean) / ++known;
  }
  for (double& s : speeds) {
    if (!(s > 0)) s = mean;
  }
}

// sum_i loads_i / sum_i speeds_i (values >= 0, speeds > 0), as balanced_time_bound computes it
// (the same double for integer loads below 2^53); from the running means, which cannot
// overflow, when a sum does.
double bound_of(const std::vector<double>& loads, const std::vector<double>& speeds) {
  double load = 0.0, speed = 0.0;
  for (double w : loads) load += w;
  for (double s : speeds) speed += s;
  if (std::isfinite(load) && std::isfinite(speed)) return load / speed;
  const auto mean = [](const std::vector<double>& values) {
    double m = 0.0, n = 0.0;
    for (double v : values) m += (v - m) / ++n;
    return m;
  };
  return mean(loads) / mean(speeds);
}

// A time computed from loads and speeds, refused when it leaves the double range.
double finite_time(double t, const char* path) {
  if (!std::isfinite(t))
    throw InputError("the loads over the speeds exceed the double range", path);
  return t;
}

// The policy's view of verdict v (which must outlive it).
Step step_of(const Verdict& v, std::int64_t iterations) {
  Step step;
  step.after_iteration = v.after_iteration;
  step.iterations = iterations;
  step.loads = &v.loads;
  step.speeds = &v.speeds;
  step.targets = &v.targets;
  step.iteration_time = v.iteration_time;
  step.balanced_time = v.balanced_time;
  step.bound_time = v.bound_time;
  return step;
}

}  // namespace

RebalanceDecider::RebalanceDecider(std::size_t ranks, std::unique_ptr<Policy> policy,
                                   std::int64_t iterations, RebalanceSettings settings)
    : ranks_(ranks),
      policy_(std::move(policy)),
      iterations_(iterations),
      settings_(settings),
      last_speeds_(ranks, 0.0) {
  if (!policy_) throw std::invalid_argument("RebalanceDecider needs a policy");
  if (ranks < 1 || ranks > kMaxProcessors)
    throw InputError(fmt::format("must be in 1..{}, got {}", kMaxProcessors, ranks), "ranks");
  if (iterations < 1 || iterations > kMaxIterations)
    throw InputError(fmt::format("must be in 1..{}, got {}", kMaxIterations, iterations),
                     "iterations");
  if (settings_.estimate_speeds)
    estimator_ = std::make_unique<SpeedEstimator>(ranks, settings_.estimate);
}

std::vector<double> RebalanceDecider::measured_speeds(const std::vector<double>& work,
                                                      const std::vector<double>& seconds) {
  std::vector<double> speeds(work.size(), 0.0);
  for (std::size_t r = 0; r < work.size(); ++r) {
    if (work[r] > 0) last_speeds_[r] = work[r] / seconds[r];
    speeds[r] = last_speeds_[r];
  }
  return speeds;
}

// The speeds the policy sees; empty when no rank did work in this iteration.
std::vector<double> RebalanceDecider::speeds_of(const Observation& o) {
  if (!o.speeds.empty()) return o.speeds;
  const std::vector<double>& work = o.work.empty() ? o.loads : o.work;
  std::vector<double> speeds;
  if (estimator_) {
    estimator_->update(work, o.seconds);
    speeds = estimator_->speeds();
  } else {
    speeds = measured_speeds(work, o.seconds);
  }
  if (std::none_of(work.begin(), work.end(), [](double w) { return w > 0; })) return {};
  fill_unmeasured(speeds);
  return speeds;
}

std::vector<double> RebalanceDecider::observe(const Observation& o) {
  if (pending_) throw std::logic_error("RebalanceDecider: observe twice without a decision");
  check_observation(o, ranks_);
  Verdict v;
  v.loads = o.loads;
  v.speeds = speeds_of(o);
  v.after_iteration = decisions_ + 1;
  if (o.speeds.empty()) {
    for (double t : o.seconds) v.measured_time = std::max(v.measured_time, t);
  } else {
    v.measured_time = finite_time(iteration_time(v.loads, v.speeds), "loads");
  }
  v.iteration_time = v.measured_time;
  // The model's time at the estimates, as in the simulator: no timing noise in T - T_bal.
  if (estimator_ && !v.speeds.empty())
    v.iteration_time = finite_time(iteration_time(v.loads, v.speeds), "loads");
  decisions_ = v.after_iteration;
  pending_ = std::move(v);
  return pending_->speeds;
}

// T_bal and T_bound of v for `proposal` (checked).
void RebalanceDecider::predict(Verdict& v, const Proposal& proposal) const {
  check_values(proposal.loads, ranks_, "proposal.loads", false);
  v.targets = proposal.loads;
  if (proposal.balanced_time) {
    v.balanced_time = checked_prediction(proposal.balanced_time, "proposal.balanced_time");
  } else {
    // At the current loads already, the balanced time is the iteration's own: computed from the
    // speeds, it could differ from a measured one and show a gain that is not there.
    v.balanced_time = v.targets == v.loads
                          ? v.iteration_time
                          : finite_time(iteration_time(v.targets, v.speeds), "proposal.loads");
  }
  v.bound_time = proposal.bound_time
                     ? checked_prediction(proposal.bound_time, "proposal.bound_time")
                     : finite_time(bound_of(v.loads, v.speeds), "loads");
}

Verdict RebalanceDecider::decide(const Proposal& proposal) {
  if (!pending_) throw std::logic_error("RebalanceDecider: decide without an observation");
  // A bad proposal throws here, leaving the observation to decide with a corrected one.
  if (!pending_->speeds.empty()) predict(*pending_, proposal);
  Verdict v = std::move(*pending_);
  pending_.reset();
  if (v.speeds.empty()) {
    v.targets = v.loads;
    v.reason = "no rank reported work: no speed to balance for";
    return v;
  }
  if (v.after_iteration >= iterations_) {
    v.reason = "after the last iteration: nothing left to speed up";
    return v;
  }
  consult_policy(v, proposal);
  return v;
}

Verdict RebalanceDecider::decide(const Observation& observation, const Proposal& proposal) {
  observe(observation);
  return decide(proposal);
}

void RebalanceDecider::consult_policy(Verdict& v, const Proposal& proposal) {
  Step step = step_of(v, iterations_);
  v.cost_factor = cost_factor();
  double cost = -1.0;  // asked for once, on first request
  step.plan_makespan = [&] {
    if (cost < 0) {
      if (!proposal.migration_cost)
        throw InputError("the policy needs a migration cost", "proposal.migration_cost");
      const double c = proposal.migration_cost();
      if (!(std::isfinite(c) && c >= 0))
        throw InputError(fmt::format("must return a finite number >= 0, got {}", c),
                         "proposal.migration_cost");
      cost = c;
    }
    return cost * v.cost_factor;
  };
  const Decision decision = policy_->decide(step);
  v.consulted = true;
  v.rebalance = decision.rebalance;
  v.reason = decision.reason;
  v.predicted_saving = decision.predicted_saving;
  v.planned = decision.planned || cost >= 0;
  v.migration_cost = std::max(cost, 0.0);
}

void RebalanceDecider::rebalanced(const Verdict& v) {
  if (v.consulted) policy_->rebalanced(step_of(v, iterations_));
}

void RebalanceDecider::migrated(double predicted, double measured) {
  if (!(std::isfinite(predicted) && std::isfinite(measured) && predicted > 0 && measured >= 0))
    return;
  predicted_ += predicted;
  measured_ += measured;
}

double RebalanceDecider::cost_factor() const {
  if (!(predicted_ > 0)) return 1.0;
  const double kappa = measured_ / predicted_;
  return kappa > 1.05 || kappa < 0.95 ? kappa : 1.0;
}

}  // namespace redist::balance
