// `busiest-first`: every message in one piece, by a dense greedy list schedule whose priority is
// the work left on the resources a message uses (docs/exchange.md, "Algorithms"). Ours: no paper
// describes it; it is `whole` with a dynamic priority in place of "longest first".
//
// A message's priority is the unstarted seconds of its sender's port plus those of its receiver's
// port, plus, for a crossing message under a backbone, the backbone's unstarted seconds divided
// by its transfers (the seconds the backbone still needs at full use). Whenever messages end, the
// waiting messages whose two ports are free start in order of that priority, largest first (ties:
// the earlier message of the instance), a crossing one only while a backbone transfer is free.
// A schedule at the lower bound must keep its bottleneck resources busy from start to end; serving
// first the messages whose resources have the most work left does that where `whole`'s longest
// first does not: on the block-cyclic moves of docs/exchange.md whose crossing messages make the
// backbone the bottleneck, it ends at the bound where whole ends 1.25x-1.5x above it and
// MPI_Alltoallv's behaviour (all-at-once) 1.09x-1.15x.
//
// Guarantee: as whole's. The schedule is dense (a message waits only while one of its ports is
// busy or every transfer is taken), so the last message to end waited at most the ports bound on
// each of its ports and the backbone bound: makespan <= 2 x the ports bound without a backbone,
// <= 2 x the ports bound + the backbone bound (3 x the lower bound) with one. One piece per
// message. Optimal (Proof::lower_bound) when it meets the bound.
// Complexity: O(m d log m) for m messages and d the most messages of one node: each time a port
// frees, its node reads its waiting messages (at most d), and the ready ones of an instant are
// sorted; a crossing message held back for want of a transfer waits in a heap keyed by its
// priority (keys only decrease, so a stale key is refreshed when it reaches the top). Instances
// whose m x d passes kMaxBusiestFirstMessagesTimesDegree are refused before any work (limits.hpp;
// OptionError at "algorithm").
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_busiest_first(const Instance& instance);

}  // namespace redist::exchange
