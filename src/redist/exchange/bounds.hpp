// Lower bounds on the makespan of every exchange schedule (docs/exchange.md, "Bounds").
//
// - ports: every message crosses its sender's send port and its receiver's receive port in at
//   least one piece, so node i's send port is busy at least sum over its messages of
//   (latency + bytes / rate) seconds, and likewise its receive port; the bound is the largest of
//   these 2p sums. Without latency it is the preemptive optimum (Gonzalez and Sahni's open shop:
//   the largest row or column sum of the duration matrix is reached by a decomposition into
//   matchings, redist/exchange/preemptive.hpp).
// - backbone: at most k pieces cross between the clusters at once, so the crossing messages'
//   total (latency + bytes / rate) divided by k.
// Complexity: O(p + messages).
#pragma once

#include <optional>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Bounds bounds(const Instance& instance);

// The largest total duration of a node's sends or receives, with `latency` charged once per
// message (the ports term).
double port_bound(const Instance& instance);

}  // namespace redist::exchange
