// One decision for a running application (docs/balance.md, `redist balance advise`): given the
// current counts, the speeds just measured and the iterations still to run, should it rebalance
// now? Rule: cost-benefit, i.e. rebalance when (T - T_bal) * R > makespan, with T = max_i n_i /
// s_i, T_bal the same at the balanced targets and makespan that of the planned redistribution.
// Complexity: O(p log p) for the targets plus one ring plan (`auto`).
#pragma once

#include <cstdint>
#include <vector>

#include "redist/balance/model.hpp"
#include "redist/ring/model.hpp"

namespace redist::balance {

struct AdviseInput {
  RingCosts ring;
  std::vector<std::int64_t> loads;
  std::vector<double> speeds;
  std::int64_t remaining_iterations = 0;  // R >= 0
};

struct Advice {
  bool rebalance = false;
  double iteration_time = 0.0;
  double balanced_iteration_time = 0.0;
  double predicted_saving = 0.0;  // (T - T_bal) * R
  double plan_makespan = 0.0;
  std::vector<std::int64_t> targets;
  ring::Schedule schedule;  // loads -> targets, present even when the answer is no
};

// Throws InputError naming the field of the balance object ("speeds[2]", "remaining_iterations").
Advice advise(const AdviseInput& input);

}  // namespace redist::balance
