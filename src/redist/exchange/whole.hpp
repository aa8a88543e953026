// `whole`: every message in one piece, scheduled by a dense greedy list schedule
// (docs/exchange.md, "Algorithms").
//
// Messages wait in each sender's list, longest first. Whenever a message ends, its sender and its
// receiver look, in list order, for a waiting message whose other end (and, for a crossing
// message under a backbone, a free backbone transfer) is free at that instant, and start it. The
// schedule is dense: a message waits only while its sender or its receiver (or every backbone
// transfer) is busy.
// Guarantee: one piece per message (latency paid once each); makespan at most 2 x the ports
// bound on one-port instances (the last message to end waited only while one of its two ports was
// busy) and at most 3 x the largest bound under a backbone. Optimal when it meets the bound.
// Complexity: O(m log m + m d) for m messages and d the largest number of messages of a node.
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_whole(const Instance& instance);

}  // namespace redist::exchange
