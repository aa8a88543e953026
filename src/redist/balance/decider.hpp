// The deciding half of dynamic load balancing for any partitioned application (ours): particles
// or mesh cells split among ranks by a partitioner (Zoltan, ParMETIS, a space-filling curve...),
// no ring and no integer items assumed. After every iteration the application reports what each
// rank measured and what the partitioner would do; the decider answers "rebalance now?" with a
// policy of policy.hpp (every online one), as the ring's RebalanceController does (controller.hpp,
// which runs on this class: one decision path for the ring and for everything else).
//
// Two phases per iteration k (docs/balance.md, "Ring-free decisions"):
//  1. observe(Observation): each rank's load w_i (work units: particles, cells, summed element
//     weights...) and either its measured compute time t_i in seconds or its speed s_i. Returns
//     the speeds s_i the decision will use, so that the partitioner can be asked for loads
//     proportional to them (part sizes) before phase 2.
//  2. decide(Proposal): the loads w'_i the partitioner proposes, optionally the time it predicts
//     after the rebalance, and the migration cost as a callable, evaluated at most once and only
//     when the policy asks (plan the migration, e.g. with the exchange family, only then).
// decide(observation, proposal) does both at once when the proposal does not depend on speeds.
//
// Speeds (RebalanceSettings). With times reported, by default s_i is rank i's estimate by a
// SpeedEstimator fed with every iteration's work_i / t_i (speed_estimate.hpp), and the policy
// sees the model's times at those speeds, T = max_i w_i / s_i, so that timing noise does not show
// as a gain; with estimate_speeds off, s_i = work_i / t_i of the last iteration and T = max_i t_i
// as measured. A rank that did no work keeps its estimate (or last measured speed), or gets the
// mean of the others' if it never had one; with no work at all in an iteration nothing is
// decided. With speeds reported, they are used as they are and T = max_i w_i / s_i.
// Predictions. After a rebalance the iteration is predicted to take T_bal = max_i w'_i / s_i
// (or the proposal's balanced_time), and T_bal = T when w' = w (nothing would change). No
// distribution is faster than T_bound = sum_i w_i / sum_i s_i (or the proposal's bound_time;
// from the means when a sum overflows);
// the threshold and period-rule policies compare T with it.
// Cost calibration (ours). The migration cost is a prediction; the caller reports each
// migration's predicted and measured durations (migrated()). Once the measured durations total
// more than 5% above or below the predicted ones, the policy sees every predicted cost times
// kappa = sum of measured / sum of predicted (Verdict::cost_factor).
// Guarantee: with the ring's counts as loads, its balanced targets as proposal and the ring
// plan's makespan as migration cost, the decisions are RebalanceController's (controller_test
// checks it against the model simulator, decider_test against the controller).
// Complexity per decision: O(p) for the checks and the times, the estimator's O(p) (its noise
// median kept incrementally, speed_estimate.hpp), the policy's work (policy.hpp) and the caller's
// migration cost when asked for. About 4.5 ms at 65,536 ranks under cost-benefit, the estimator
// included (bench/balance_decider_benchmark.cpp, docs/balance.md). Limits: 1 <= p <=
// kMaxProcessors, 1 <= K <= kMaxIterations (model.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redist/balance/policy.hpp"
#include "redist/balance/speed_estimate.hpp"

namespace redist::balance {

struct RebalanceSettings {
  // true: the policy sees the estimates of a SpeedEstimator and the model times at those speeds.
  // false: the speeds and the time of the last iteration as measured.
  bool estimate_speeds = true;
  SpeedEstimateSettings estimate;  // the estimator's thresholds
};

// What every rank measured in one iteration (index i = rank). Exactly one of `seconds` and
// `speeds` is given.
struct Observation {
  std::vector<double> loads;    // w_i: the load it held (work units), finite >= 0
  std::vector<double> seconds;  // t_i: its compute time, finite >= 0 (> 0 where work_i > 0)
  std::vector<double> speeds;   // or s_i: its speed (work units per second), finite > 0
  // Only with `seconds`, when the work done differs from the load held: the speed samples are
  // work_i / t_i (finite >= 0). Empty: the loads.
  std::vector<double> work;
};

// What a rebalance now would do.
struct Proposal {
  std::vector<double> loads;  // w'_i proposed by the partitioner, finite >= 0
  // The iteration time predicted after the rebalance, if the caller knows better than
  // max_i w'_i / s_i (finite >= 0).
  std::optional<double> balanced_time;
  // A lower bound on the iteration time of any distribution, if the caller knows better than
  // sum_i w_i / sum_i s_i (finite >= 0).
  std::optional<double> bound_time;
  // Predicted seconds to migrate from the current loads to `loads` (finite >= 0); called at
  // most once, only when the policy asks (InputError at "proposal.migration_cost" if it asks
  // and there is none).
  std::function<double()> migration_cost;
};

// The answer after iteration `after_iteration`.
struct Verdict {
  std::int64_t after_iteration = 0;  // k >= 1
  bool rebalance = false;
  std::string reason;             // the policy's sentence, or why it was not consulted
  double predicted_saving = 0.0;  // the policy's estimate (0 when it makes none)
  bool planned = false;           // whether the migration cost was asked for
  double migration_cost = 0.0;    // the caller's value when planned (before cost_factor)
  double cost_factor = 1.0;       // kappa: the policy saw migration_cost x cost_factor
  double iteration_time = 0.0;    // T as the policy saw it
  double measured_time = 0.0;     // max_i t_i as reported (max_i w_i / s_i with speeds)
  double balanced_time = 0.0;     // T_bal
  double bound_time = 0.0;        // T_bound
  bool consulted = false;         // whether the policy decided (after iterations 1..K-1)
  std::vector<double> loads;      // w_i
  std::vector<double> targets;    // w'_i (the proposal's loads)
  std::vector<double> speeds;     // s_i used; empty when no rank did work
};

class RebalanceDecider {
 public:
  // `ranks` p, `policy` not null, K = `iterations`. InputError at "ranks" or "iterations" when
  // out of the limits above (and the estimator's for bad settings); std::invalid_argument for
  // a null policy.
  RebalanceDecider(std::size_t ranks, std::unique_ptr<Policy> policy, std::int64_t iterations,
                   RebalanceSettings settings = {});

  // Phase 1, after iteration k = decisions() + 1. Returns (a copy of) the speeds s_i for the
  // proposal, empty when no rank did work. Throws InputError naming the field ("loads",
  // "seconds[3]", ...) for a size other than p or a value out of range, std::runtime_error naming
  // the rank when a speed work_i / t_i is not a finite number > 0, and std::logic_error if the
  // previous observation was not decided yet: nothing changes then. Also InputError at "loads" when
  // the model time max_i w_i / s_i leaves the double range (the estimator has then seen the
  // sample).
  std::vector<double> observe(const Observation& observation);
  // Phase 2. Throws InputError for a bad proposal ("proposal.loads[2]", ...; not checked when no
  // rank did work), leaving the observation to decide again with a corrected one;
  // std::logic_error without an observation; and whatever the policy or the migration cost
  // throws (the observation is then consumed). Times that would leave the double range (loads
  // over speeds) are refused with InputError at "loads" or "proposal.loads".
  Verdict decide(const Proposal& proposal);
  Verdict decide(const Observation& observation, const Proposal& proposal);

  // The caller moved to v.targets after verdict `v` (whatever decided it): the policy is told
  // when it made the decision (v.consulted), so that it learns only from its own rebalances.
  void rebalanced(const Verdict& v);
  // A migration predicted to last `predicted` took `measured` seconds (pairs that are not
  // finite, or with predicted <= 0 or measured < 0, are ignored).
  void migrated(double predicted, double measured);
  // kappa of the cost calibration above (1 until the measured durations leave the 5% band).
  double cost_factor() const;

  std::int64_t decisions() const { return decisions_; }
  std::int64_t iterations() const { return iterations_; }
  std::size_t ranks() const { return ranks_; }
  const Policy& policy() const { return *policy_; }

 private:
  std::vector<double> speeds_of(const Observation& observation);
  std::vector<double> measured_speeds(const std::vector<double>& work,
                                      const std::vector<double>& seconds);
  void predict(Verdict& v, const Proposal& proposal) const;
  void consult_policy(Verdict& v, const Proposal& proposal);

  std::size_t ranks_ = 0;
  std::unique_ptr<Policy> policy_;
  std::int64_t iterations_ = 0;
  RebalanceSettings settings_;
  std::unique_ptr<SpeedEstimator> estimator_;  // when estimating
  std::vector<double> last_speeds_;            // raw speeds: the last measured (0: never)
  std::int64_t decisions_ = 0;
  std::optional<Verdict> pending_;           // observed, not decided yet
  double predicted_ = 0.0, measured_ = 0.0;  // migrations reported so far
};

}  // namespace redist::balance
