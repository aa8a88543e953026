// `stable-horizon[:A]`: a rebalancing policy of ours (not from the papers; docs/balance.md has
// its measurements against the other policies and the hindsight optimum).
//
// cost-benefit assumes the speeds just measured persist for every remaining iteration, so it
// rebalances at the first sign of a change; when a slowdown is transient it pays twice (there and
// back), and when speeds change in bursts it pays once per change. stable-horizon keeps
// cost-benefit's exact cost (the planned makespan m) and its end rule (the gain T - T_bal times
// the K - k remaining iterations must exceed m) but estimates the saving over a horizon learnt
// from the run:
//  - horizon H = min(K - k, max(A * age, L)): `age` counts the iterations since some processor's
//    speed last moved by more than 5% from the start of its level (speed_levels.hpp) (a level that
//    has lasted a iterations is expected to last about as long again), L is the mean length of a
//    processor's speed level so far (iterations x p / (level changes + p));
//  - efficiency e in [0.1, 1]: what past rebalances actually saved (each iteration, the time with
//    the loads a rebalance replaced minus the time with its targets, at the measured speeds)
//    over the gain they were decided on; 1 before any rebalance has finished;
//  - rebalance when e * (T - T_bal) * H > m, or (rent or buy) when e times the imbalance paid
//    since the last rebalance exceeds m and (T - T_bal) (K - k) > m.
// A (the `stable-horizon:A` parameter) defaults to kDefaultHorizonFactor.
// Complexity: O(p) per iteration plus the plan (planned only when T > T_bal).
#pragma once

#include <memory>
#include <string_view>

#include "redist/balance/policy.hpp"

namespace redist::balance {

inline constexpr double kDefaultHorizonFactor = 2.0;

// `parameter` is A (a finite number > 0), or empty for the default. InputError ("--policy").
std::unique_ptr<Policy> make_stable_horizon(std::string_view parameter);

}  // namespace redist::balance
