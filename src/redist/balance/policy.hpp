// Rebalancing policies (docs/balance.md): after each iteration, decide whether to move to the
// loads a rebalance would give. The same objects decide in the model simulator (simulate.hpp),
// in the ring's RebalanceController (the MPI Rebalancer) and in the ring-free RebalanceDecider
// (decider.hpp) of any partitioned application.
//
// Names (parse_policy; iterations counted from 1, "after iteration k"):
//   never            never (RRV04 §8's first scheme)
//   at:k1,k2,...     after the listed iterations (RRV04 §8: at:50, at:20,40,60,80); strictly
//                    increasing integers in 1..K-1
//   every:E          after every multiple of E below K (RRV04 §8: every:10, every:5); E >= 1
//   threshold:R[/window:W][/cooldown:C]
//                    when the imbalance T / T_bound, averaged over the last W decisions since
//                    the last rebalance (fewer when fewer were made), exceeds R, and more than C
//                    decisions have passed since the last rebalance; R >= 1, W >= 1 (default 1),
//                    C >= 0 (default 0). T_bound = sum_i w_i / sum_i s_i, so T / T_bound is the
//                    slowest rank's time over the speed-weighted mean of the ranks' times (the
//                    plain mean when speeds are equal): the max-over-mean rules of LAMMPS, 4C
//                    (threshold:1.35/window:W/cooldown:C), StePS (threshold:1.05)
//   cost-benefit     when (T - T_bal) * (K - k) > makespan: the saving predicted if the speeds
//                    persist exceeds the planned redistribution's exact cost (docs/balance.md)
//   period-rule      ours, after the period rule of Menon et al. 2012 (the idea behind
//                    Charm++'s MetaBalancer, not MetaBalancer itself): a line fitted to the
//                    imbalance T - T_bal since the last rebalance predicts when the accumulated
//                    imbalance equals the redistribution cost. `metabalancer`, its former
//                    name, is accepted as a deprecated alias
//   stable-horizon[:A]  ours: cost-benefit over a horizon learnt from how long speeds stay
//                    stable (stable_horizon.hpp)
//   replay           ours: cost-benefit over the horizon that replaying the past shows a
//                    rebalance's gain to last, after waiting half its price (replay.hpp)
//   hedged-replay    ours: replay that takes the first speeds measured to last until one
//                    changes, and asks for a saving of twice the price (replay.hpp)
//   oracle           not online: the hindsight optimum (oracle.hpp)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace redist::balance {

// What a policy sees after iteration k. Loads are in work units (the ring's item counts n_i, or
// a partitioned application's work per rank), speeds in work units per second; nothing assumes
// a ring or integer loads.
struct Step {
  std::int64_t after_iteration = 0;              // k >= 1: iterations done
  std::int64_t iterations = 0;                   // K: iterations of the whole run
  const std::vector<double>* loads = nullptr;    // w_i during iteration k - 1
  const std::vector<double>* speeds = nullptr;   // s(k - 1), as measured or estimated
  const std::vector<double>* targets = nullptr;  // the loads w'_i a rebalance now would give
                                                 // (the ring's balanced targets of s(k - 1))
  double iteration_time = 0.0;                   // T_{k-1} (measured, or max_i w_i / s_i)
  double balanced_time = 0.0;                    // T_bal: predicted T after the rebalance
                                                 // (max_i w'_i / s_i unless predicted otherwise)
  double bound_time = 0.0;                       // T_bound: sum_i w_i / sum_i s_i (N / sum s)
  // The cost of the redistribution loads -> targets (the ring plan's makespan, or the caller's
  // prediction), computed on first call and cached.
  std::function<double()> plan_makespan;
  std::int64_t remaining() const { return iterations - after_iteration; }  // K - k
};

struct Decision {
  bool rebalance = false;
  std::string reason;             // one sentence, e.g. "saving 12.5 > makespan 3.25"
  double predicted_saving = 0.0;  // the policy's own estimate (0 when it makes none)
  bool planned = false;           // whether plan_makespan was called
  double plan_makespan = 0.0;     // its value when planned
};

class Policy {
 public:
  virtual ~Policy() = default;
  // Called once after every iteration k = 1..K-1, in order.
  virtual Decision decide(const Step& step) = 0;
  // Called when the caller rebalanced after `step` (whatever decided it).
  virtual void rebalanced(const Step& step) { (void)step; }
  virtual std::string name() const = 0;
};

// The policy named `spec` for a run of `iterations` (K) iterations. Throws OptionError at
// "policy" (the command line's --policy) for an unknown name or malformed parameters (an `at:`
// list that is empty, not strictly increasing, or holds k < 1 or k >= K; E < 1; R < 1 or not
// finite; W < 1, C < 0, or a `/` part of threshold that is empty, unknown or repeated) and for
// `oracle`, which is not online (simulate.hpp handles it).
std::unique_ptr<Policy> make_policy(std::string_view spec, std::int64_t iterations);

// The policy `at:K1,K2,...` for points already parsed (strictly increasing, each in 1..K-1;
// InputError at "policy" otherwise); `never` for no point. Its name() is the spec it stands for.
std::unique_ptr<Policy> make_at_policy(const std::vector<std::int64_t>& points,
                                       std::int64_t iterations);

// The policy names for help texts, with a placeholder for parameters (e.g. "every:E").
const std::vector<std::string>& policy_names();

}  // namespace redist::balance
