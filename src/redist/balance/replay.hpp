// `replay`: a rebalancing policy of ours (not from the papers; docs/balance.md measures it against
// the other policies and the hindsight optimum).
//
// Every online policy must guess how long the gain of a rebalance will last: cost-benefit assumes
// for ever, which is wrong when slowdowns are transient; a fixed horizon is wrong in one regime or
// another. replay learns it from the run itself, by replaying the past: at every decision point j
// where the loads were not balanced, it remembers the rebalance it could have made (loads c_j to
// the targets t_j, with gain g_j = T(c_j) - T(t_j) at the speeds of that moment) and, at
// each later iteration j + h, what that rebalance would have saved at the speeds then measured,
// T(c_j) - T(t_j). The gain curve D(h) = min(1, sum_j saved_j(h) / sum_j g_j) (over the points old
// enough) says which fraction of a rebalance's immediate gain is still there h iterations later, in
// this run: close to 1 while speeds change for good, falling to 0 or below when changes are
// transient (the targets of a slowdown hurt once it is over) or when new changes soon dominate the
// iteration time. After iteration k, with gain g = T - T_bal > 0 and R = K - k iterations left,
// replay predicts the saving
//   g * S,  S = D(1) + ... + D(h) up to the last lag h <= R before D first drops to 0 or below,
// where D(h) is used only for the lags that at least kReplayMinPoints past points have reached;
// when all of those lags are positive, the last one, D(L), is assumed to last min(R - L, L) more
// iterations (as long again as observed). Before any lag is known, S = min(R, age), the number
// of iterations the speeds have been stable (speed_levels.hpp). It rebalances when the predicted
// saving exceeds the planned makespan m and, as in rent-or-buy, the imbalance paid since the last
// rebalance (sum of T - T_bal) is at least kReplayRent * m: a rebalance is never bought before
// part of its price has been paid in waiting, which keeps noise and random walks from triggering
// one redistribution per iteration.
//
// `hedged-replay` (ours, for partitioned applications whose first distribution was made before
// any speed was measured; docs/zoltan.md measures it) changes two rules of replay:
//  - while no processor's speed has left its first level (speed_levels.hpp), the speeds are
//    taken to last for the rest of the run: the fallback horizon is R instead of the age, and
//    nothing has to be paid in waiting first. A first distribution made blind (equal part sizes)
//    is then corrected as soon as it is known to pay, without waiting for the evidence that the
//    age gives only later;
//  - it rebalances only when the predicted saving exceeds kHedgedReplayMargin times the planned
//    makespan, a hedge against the horizon being overestimated (a speed change, or a proposal
//    that a later one would have made cheaper).
// Guarantee: a heuristic; its predicted saving never exceeds cost-benefit's, g * R (D <= 1), so it
// rebalances only where cost-benefit would (hedged-replay only where cost-benefit would with twice
// the makespan). The measured ratios to the hindsight optimum are in docs/balance.md and
// docs/zoltan.md.
// Complexity: O(kReplayMaxLag * p) per decision (every remembered point is followed for
// kReplayMaxLag iterations, then only its sums remain), O(kReplayMaxLag * (p + kReplayMaxLag))
// memory, plus the plan of the redistribution when T > T_bal.
#pragma once

#include <cstdint>
#include <memory>

#include "redist/balance/policy.hpp"

namespace redist::balance {

inline constexpr std::int64_t kReplayMaxLag = 32;    // iterations a past point is followed
inline constexpr std::int64_t kReplayMinPoints = 3;  // points needed before a lag is trusted
inline constexpr double kReplayRent = 0.5;           // imbalance paid before a rebalance / m
inline constexpr double kHedgedReplayMargin = 2.0;   // hedged-replay: saving needed / m

std::unique_ptr<Policy> make_replay();
std::unique_ptr<Policy> make_hedged_replay();

}  // namespace redist::balance
