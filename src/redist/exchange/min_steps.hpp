// `min-steps`: a step schedule with the fewest steps, each message whole, for a start-up cost per
// step (docs/exchange.md, "Step schedules"). After Desprez, Dongarra, Petitet, Randriamaro and
// Robert, "Scheduling block-cyclic array redistribution", IEEE TPDS 9(2), 1998, implemented from
// the problem's statement (we had no copy of the paper): the messages form a bipartite graph
// from senders to receivers whose largest degree Delta (the most messages one node sends or
// receives) is the fewest steps of any schedule that sends each message whole, since a node's
// messages need distinct steps. König's edge-colouring theorem gives a schedule with exactly Delta
// steps; among those, the least total cost sum over steps of (latency + longest message) is the
// paper's aim, and what the colouring order and the exchanges below aim at (a heuristic, not an
// optimum).
//
// Algorithm: the classical alternating-path edge colouring of a bipartite graph with Delta
// colours, then exchanges between pairs of steps. Messages are coloured longest first
// (latency + bytes / rate, ties by index). Message (u, v) takes the lowest colour free at both
// ends if there is one (the scan is bounded, see Complexity); else a colour a free at u and b free
// at v: the path from v along edges coloured a, b, a, ... never reaches u (u has no a-edge, and the
// path reaches senders only by a-edges), so swapping a and b on it frees a at v; symmetrically the
// path from u frees b at u. Of the two, the path whose longest message is shorter is swapped, so
// that long messages, coloured first, stay together and each step's cost stays its longest message.
// Then, for each pair of steps (a, b), their messages form paths and even cycles alternating a and
// b; swapping the two colours on any of them keeps a proper colouring, and the choice that
// minimises len(a) + len(b) is found exactly in O(C log C) for C components (for a bound T on step
// a at least every component's shorter side, a component whose longer side is <= T puts it in a,
// the others their shorter side). Sweeps over all pairs repeat while one improves (at most 4 sweeps
// and 2 x 10^7 message visits). The steps are then listed by decreasing length (the order does not
// change the makespan).
// Guarantee: exactly Delta steps without a backbone (each message one piece, latency paid once
// per message); when in addition every message has the same duration beta + d, the makespan
// Delta (beta + d) equals the ports bound of the node with Delta messages, so the plan is optimal
// over every piece schedule (and the cost is the least of every step schedule). With a backbone of
// k transfers, a step with c > k crossing messages runs as ceil(c / k) sub-steps
// (split_for_backbone), so more than Delta steps may be used. Optimal is claimed only when the
// makespan meets bounds().lower_bound.
// Complexity: O(m (Delta + p)) time for m messages and p nodes to colour (the lowest free colour
// of a node from a cursor, a colour free at both ends in O(Delta) within a budget of 5 x 10^7
// scanned colours, two paths of at most 2p edges per message, far shorter in practice), O(m log m)
// for the order, and for the exchanges O(m Delta log m) per sweep, capped at 2 x 10^7 message
// visits; memory O(p Delta) for the colour table (a hash table of O(m) entries when 2 p Delta
// exceeds 2^24). Instances whose m x Delta passes kMaxMinStepsMessagesTimesDegree are refused
// before any work (limits.hpp; OptionError at "algorithm").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

// The most messages one node sends or receives (Delta): the fewest steps of a whole-message
// step schedule. O(p + m); messages with a node out of range are skipped.
std::size_t largest_degree(const Instance& instance);

// Refuses, before planning, an instance whose messages times Delta pass `limit`: OptionError at
// "algorithm" naming the algorithm, both numbers, the limit and `cost` (why it grows so).
// O(p + m) (O(1) when m^2 is within the limit).
void require_messages_times_degree(const Instance& instance, std::string_view algorithm,
                                   std::size_t limit, std::string_view cost);

enum class ColourTable : std::uint8_t { automatic, dense, sparse };

// A colour in 0..Delta-1 for each message, such that no two messages of a node share one (a
// proper edge colouring with Delta colours), coloured longest first as above. `table` picks the
// (colour, vertex) -> message table; the default chooses by size, and tests force each.
std::vector<std::uint32_t> min_step_colours(const Instance& instance,
                                            ColourTable table = ColourTable::automatic);

Plan plan_min_steps(const Instance& instance);

}  // namespace redist::exchange
