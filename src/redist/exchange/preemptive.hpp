// `preemptive`: the optimal preemptive schedule without start-up cost, by decomposing the
// message matrix into matchings (docs/exchange.md, "Algorithms").
//
// The durations d_ij = bytes / rate form a bipartite graph from senders to receivers whose largest
// row or column sum L is the ports bound. Padded with slack edges and a transposed copy of the
// messages, every vertex has weighted degree exactly L; such a graph is a weighted sum of perfect
// matchings (Birkhoff and von Neumann; Gonzalez and Sahni's preemptive open shop). The schedule
// runs these matchings one after the other: during each, every matched message sends a piece.
// The matchings are found incrementally: when a matched edge is used up, only its two ends lose
// their partner, and one augmenting path restores a perfect matching, so consecutive matchings
// share all but a few edges, and a message matched over consecutive matchings is one piece. The
// path is searched breadth first from the freed sender and stops at the first vertex adjacent to
// the freed receiver: most paths have 1 or 3 edges (2.5 pieces per message measured on random
// instances with 64 partners per node).
// Durations are counted in integer ticks (a power of two near L / 2^50; each message at least one
// tick), so the decomposition is exact; the schedule's times are then L's within about m_i / 2^49
// relative, for m_i the most messages of one node, and exact when the durations are multiples of
// the tick.
//
// Guarantee: with latency 0, makespan equal to the ports bound (optimal, up to that rounding);
// with latency beta > 0, each matching that starts a piece adds beta (valid, not optimal: the
// steps algorithms are meant for beta > 0). Applies to one-port instances without a backbone
// (OptionError at "algorithm" otherwise).
// Complexity: O(E) per augmenting path for E = 2m + 2p edges, one path per used-up edge: O(E^2)
// in the worst case, near O(E) per path found quickly in practice (docs/exchange.md, measured):
// the time grows as m times the nodes that have a message, and plan_preemptive refuses instances
// beyond kMaxPreemptiveMessagesTimesNodes (limits.hpp).
// Memory O(m + p + pieces).
#pragma once

#include <cstdint>
#include <optional>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

// OptionError at "algorithm", before any work, when the messages times the nodes that send or
// receive one pass kMaxPreemptiveMessagesTimesNodes (limits.hpp).
Plan plan_preemptive(const Instance& instance);

// The nodes that send or receive a message (indices out of range are skipped). O(m + p).
std::size_t active_nodes(const Instance& instance);

// Whether plan_preemptive plans the instance rather than refusing it for its size. O(m + p).
bool preemptive_plans(const Instance& instance);

// The same within a work budget: empty once the augmenting paths have scanned more than
// `edge_scans` edges (each breadth-first step counts the live edges of the vertex it leaves), so
// that a caller can bound the cost before paying it. Deterministic: the same instance and budget
// give the same answer on any machine.
std::optional<Plan> plan_preemptive_within(const Instance& instance, std::int64_t edge_scans);

}  // namespace redist::exchange
