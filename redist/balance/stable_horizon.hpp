// `stable-horizon[:A]`: a rebalancing policy of ours (not from the papers; docs/balance.md has
// its measurements against the other policies and the hindsight optimum).
//
// cost-benefit assumes the speeds just measured persist for every remaining iteration, so it
// rebalances at the first sign of a change; when speeds drift or change in bursts (several
// processors one after the other), it pays for a redistribution per change. stable-horizon
// estimates how long the current speeds will last from how long they have lasted: with `age`
// the iterations since some speed last moved by more than 5%, it rebalances when
// (T - T_bal) * min(K - k, A * age) > makespan. A right after a change is a bet that more
// changes follow; with constant speeds it waits until the imbalance has cost about makespan / A,
// so it never pays more than (1 + 1/A) times what cost-benefit pays for one isolated change.
// A defaults to kDefaultHorizonFactor. Complexity: O(p) per iteration plus the plan.
#pragma once

#include <memory>
#include <string_view>

#include "redist/balance/policy.hpp"

namespace redist::balance {

inline constexpr double kDefaultHorizonFactor = 2.0;
inline constexpr double kSpeedChangeTolerance = 0.05;

// `parameter` is A (a finite number > 0), or empty for the default. InputError ("--policy").
std::unique_ptr<Policy> make_stable_horizon(std::string_view parameter);

}  // namespace redist::balance
