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
// Complexity: O(m log m + m d) for m messages and d the largest number of messages of a node (the
// scans read each node's list in order, each entry holding the other end; on dense-ish instances
// of up to 2,896 nodes a scan looks up the few free other ends in a table of positions instead
// when they are far fewer than its list's waiting messages). Under a backbone, when a
// transfer frees after all were taken, the idle senders that still have a crossing message are
// scanned in order until every transfer is taken again.
#pragma once

#include <string>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_whole(const Instance& instance);

// A plan of one piece per message (whole's, busiest-first's): its makespan (the latest end), its
// bounds, and optimal when it meets the lower bound.
Plan whole_message_plan(const Instance& instance, std::string algorithm, std::vector<Piece> pieces);

}  // namespace redist::exchange
