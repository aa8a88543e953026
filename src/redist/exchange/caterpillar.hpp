// `caterpillar`: ScaLAPACK's caterpillar schedule, a baseline step schedule (docs/exchange.md,
// "Step schedules"). After Prylli and Tourancheau's block-cyclic redistribution in ScaLAPACK
// (the PxGEMR2D routines), as described by Desprez, Dongarra, Petitet, Randriamaro and Robert,
// IEEE TPDS 9(2), 1998; implemented from that description.
//
// With p nodes, p steps t = 0..p-1: at step t node i sends its message to, and receives the
// message from, its partner (t - i) mod p, that is the pairs {i, j} with i + j = t (mod p)
// exchange their messages (a node paired with itself sends nothing). Each ordered pair is in
// exactly one step, each step is a matching, and each message is one piece. A step lasts latency
// + its longest piece; a step without any message is skipped (it costs nothing, not even the
// latency). With a backbone of k transfers, a step with c > k crossing messages runs as
// ceil(c / k) sub-steps (split_for_backbone).
// Guarantee: valid, each message one piece; the pattern ignores the sizes, so it is a baseline,
// optimal only when its makespan meets bounds().lower_bound (an all-to-all of equal messages takes
// p steps where min-steps takes p - 1).
// Complexity: O(p + m) to place the messages, O(m log m) with a backbone.
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_caterpillar(const Instance& instance);

}  // namespace redist::exchange
