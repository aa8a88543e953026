// Rebalancing policies (docs/balance.md): after each iteration, decide whether to move to the
// balanced targets of the speeds just measured. The same objects decide in the model simulator
// (simulate.hpp) and in the MPI Rebalancer (measured speeds and times).
//
// Names (parse_policy; iterations counted from 1, "after iteration k"):
//   never            never (RRV04 §8's first scheme)
//   at:k1,k2,...     after the listed iterations (RRV04 §8: at:50, at:20,40,60,80); strictly
//                    increasing integers in 1..K-1
//   every:E          after every multiple of E below K (RRV04 §8: every:10, every:5); E >= 1
//   threshold:R      when T / (N / sum s) > R, R >= 1 (max-over-mean rules of LAMMPS, 4C, StePS)
//   cost-benefit     when (T - T_bal) * (K - k) > makespan: the saving predicted if the speeds
//                    persist exceeds the planned redistribution's exact cost (docs/balance.md)
//   metabalancer     Charm++ MetaBalancer (Menon et al. 2012): a line fitted to the imbalance
//                    T - N / sum s since the last rebalance predicts when the accumulated
//                    imbalance equals the redistribution cost
//   stable-horizon[:A]  ours: cost-benefit over a horizon learnt from how long speeds stay
//                    stable (stable_horizon.hpp)
//   replay           ours: cost-benefit over the horizon that replaying the past shows a
//                    rebalance's gain to last, after waiting half its price (replay.hpp)
//   oracle           not online: the hindsight optimum (oracle.hpp)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace redist::balance {

// What a policy sees after iteration k.
struct Step {
  std::int64_t after_iteration = 0;                    // k >= 1: iterations done
  std::int64_t iterations = 0;                         // K: iterations of the whole run
  const std::vector<std::int64_t>* counts = nullptr;   // n_i during iteration k - 1
  const std::vector<double>* speeds = nullptr;         // s(k - 1), as measured
  const std::vector<std::int64_t>* targets = nullptr;  // balanced targets of s(k - 1)
  double iteration_time = 0.0;                         // T_{k-1} (measured by the MPI Rebalancer)
  double balanced_time = 0.0;                          // T_bal: max_i targets_i / s_i(k - 1)
  double bound_time = 0.0;                             // N / sum_i s_i(k - 1)
  // The makespan of the redistribution counts -> targets, planned on first call and cached.
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

// The policy named `spec` for a run of `iterations` (K) iterations. Throws InputError with path
// "--policy" for an unknown name or malformed parameters (an `at:` list that is empty, not
// strictly increasing, or holds k < 1 or k >= K; E < 1; R < 1 or not finite) and for `oracle`,
// which is not online (simulate.hpp handles it).
std::unique_ptr<Policy> make_policy(std::string_view spec, std::int64_t iterations);

// The policy `at:K1,K2,...` for points already parsed (strictly increasing, each in 1..K-1;
// InputError at "policy" otherwise); `never` for no point. Its name() is the spec it stands for.
std::unique_ptr<Policy> make_at_policy(const std::vector<std::int64_t>& points,
                                       std::int64_t iterations);

// The policy names for help texts, with a placeholder for parameters (e.g. "every:E").
const std::vector<std::string>& policy_names();

}  // namespace redist::balance
