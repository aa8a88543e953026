// RRV04 §3-4, Algorithms 1 and 2: optimal redistribution on unidirectional rings.
//
// The flow over link i -> succ(i) is the imbalance of the slice that starts just after the
// processor of minimal prefix imbalance and ends at i: flows[i] = prefix[i] - min(prefix). The
// slice C_{start,end} of maximal imbalance (a circular maximum-subarray problem) is found in O(n)
// from the prefix sums. Each processor then sends its flow as soon as possible (Algorithm 2):
// its own items back to back from time 0, then each received item when it arrives, at the pace of
// the slower of its own link and the upstream runs (run periods).
//
// Guarantee (RRV04 Theorems 1-2): when loads and targets are >= 1 the makespan equals the lower
// bound max over i of flows[i] * cost_next[i] (Lemma 5: no forwarding delay). With zero loads or
// targets the schedule is still valid and `optimal` is set only when the bound is met.
// Complexity: O(n + R) time and memory, R the number of runs emitted (R = n for homogeneous rings;
// at most one run more per slower upstream run for heterogeneous ones).
#pragma once

#include "redist/ring/model.hpp"

namespace redist::ring {

// Minimal non-negative flows of a unidirectional ring: flows[i] = prefix[i] - min(prefix).
std::vector<std::int64_t> unidirectional_flows(const Instance& instance);

// Requires a unidirectional ring (throws InputError otherwise).
Schedule plan_unidirectional(const Instance& instance);

}  // namespace redist::ring
