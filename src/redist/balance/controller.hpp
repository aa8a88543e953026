// The deciding half of dynamic load balancing on a ring (ours): from what every processor
// reports after an iteration (its count, the work it did and the time it took) to a decision
// (rebalance now or not, and to which targets), with a policy of policy.hpp. The MPI Rebalancer
// runs it on rank 0 (redist/mpi/rebalancer.hpp) and the simulated application of RRV04 §8 runs
// it as is (docs/ring-sim.md), so both decide alike.
//
// It is the ring's use of the ring-free RebalanceDecider (decider.hpp), which decides: the
// controller hands it the counts as loads and the work and times as measured, computes the
// balanced targets (targets.hpp) of the speeds it returns, and hands it those targets as the
// proposal, with N / sum s as the bound and, as the migration cost, the makespan of the ring plan
// counts -> targets (planned only when the policy asks). Speeds, the model times the policy sees,
// cost calibration and the decisions after iteration K are the decider's (decider.hpp): by
// default s_i is processor i's estimate by a SpeedEstimator, T = max_i n_i / s_i and
// T_bal = max_i targets_i / s_i; with estimate_speeds off, s_i = work_i / time_i of the last
// iteration and T = max_i time_i as measured (at the targets already, T_bal is taken to be T).
// The policy is consulted after iterations 1..K-1, as in the simulator; after iteration K the
// answer is no. Cost calibration: once the measured durations of the redistributions
// (redistributed()) total more than 5% above or below the planned makespans, the policy sees
// every planned makespan times kappa = sum of measured / sum of planned.
// Guarantee: when the measured times are n_i / s_i(t) (and redistributions last their planned
// makespans within 5%, or are not reported), the decisions are those of `redist balance simulate`
// on the same speeds (simulate.hpp).
// Complexity per decision: O(p log p) for the targets, the decider's O(p), and the policy's
// work (the ring plan of the redistribution, planned once, only when the policy asks for it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "redist/balance/decider.hpp"
#include "redist/balance/model.hpp"
#include "redist/balance/policy.hpp"

namespace redist::balance {

// One decision, after iteration `after_iteration`.
struct RebalanceDecision {
  std::int64_t after_iteration = 0;  // k >= 1
  bool rebalance = false;
  std::string reason;                 // the policy's sentence
  double predicted_saving = 0.0;      // the policy's estimate (0 when it makes none)
  bool planned = false;               // whether the redistribution was planned
  double plan_makespan = 0.0;         // its makespan in the ring model (when planned)
  double cost_factor = 1.0;           // kappa: the policy saw plan_makespan x cost_factor
  double iteration_time = 0.0;        // T as the policy saw it (see above)
  double measured_time = 0.0;         // max_i time_i as reported
  double balanced_time = 0.0;         // max_i targets_i / s_i
  double bound_time = 0.0;            // N / sum_i s_i
  bool consulted = false;             // whether the policy decided (after iterations 1..K-1)
  std::vector<std::int64_t> counts;   // every processor's count during the iteration
  std::vector<std::int64_t> targets;  // the balanced targets of `speeds`
  std::vector<double> speeds;         // s_i used (estimated or measured, or the fallback above)
};

class RebalanceController {
 public:
  // `ring`: the link costs per item; `policy`: not null; K = `iterations` >= 1. Throws
  // std::invalid_argument for a null policy, InputError as RebalanceDecider does.
  RebalanceController(RingCosts ring, std::unique_ptr<Policy> policy, std::int64_t iterations,
                      RebalanceSettings settings = {});

  // After iteration k = decisions() + 1: every processor's count during it, the work it did
  // (finite, >= 0) and the time it took (finite, > 0 where work > 0). Throws
  // std::runtime_error when a speed work / time is not a finite number > 0, InputError for
  // sizes other than p or values out of range (RebalanceDecider::observe), and whatever the
  // policy throws.
  RebalanceDecision decide(const std::vector<std::int64_t>& counts, const std::vector<double>& work,
                           const std::vector<double>& seconds);
  // The caller moved to d.targets after decision `d` (whatever decided it): the policy is told
  // when it made the decision (d.consulted), so that it learns only from its own rebalances.
  void rebalanced(const RebalanceDecision& d);
  // A redistribution planned to last `planned` took `measured` (both finite, >= 0).
  void redistributed(double planned, double measured);
  // kappa of the cost calibration above (1 until the measured durations leave the 5% band).
  double cost_factor() const;

  std::int64_t decisions() const { return decider_.decisions(); }
  std::int64_t iterations() const { return decider_.iterations(); }
  const Policy& policy() const { return decider_.policy(); }
  const RingCosts& ring() const { return ring_; }
  const RebalanceDecider& decider() const { return decider_; }

 private:
  RingCosts ring_;
  RebalanceDecider decider_;
};

}  // namespace redist::balance
