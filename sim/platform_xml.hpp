// A Tiers graph (sim/tiers.hpp) as a SimGrid platform file (XML, DTD version 4.1), loadable by
// S4U programs (Engine::load_platform) and by `smpirun -platform` (docs/ring-sim.md).
//
// One zone, routing="Floyd": SimGrid computes the routes with the fewest links from routes
// declared between neighbours only, one <route> per edge (symmetrical: the same link both ways).
// Nodes are declared in node order, hosts and routers interleaved, so that SimGrid numbers its
// netpoints as Routes (sim/tiers.hpp) numbers nodes and both break ties between equal-hop routes
// alike (sim/platform_check.cpp verifies it).
//   <host id="lan3-2" speed="22Mf,...,172Mf" pstate="7"/>   a host: it can run at any of the
//                                                    machines' speeds (balance::kMachineSpeeds,
//                                                    Mflop/s, 1 Mf = 1e6 flop/s) and starts at
//                                                    its own (pstate 7: 88 Mflop/s), so that a
//                                                    simulation can change its speed
//                                                    (Host::set_pstate)
//   <router id="wan0-4"/>                            any other node
//   <link id="man-wan:man2-0:wan0-3" bandwidth="11.7MBps" latency="4.2ms"/>   one per edge
//   <route src="man2-0" dst="wan0-3"><link_ctn id="man-wan:man2-0:wan0-3"/></route>
// Bandwidths and latencies are printed with 6 significant digits (the tables have at most 3), so
// SimGrid reads back each value to within one unit in the last place. Links are SHARED (SimGrid's
// default): both directions of an edge share its bandwidth.
// Complexity: O(N + E) text; SimGrid seals the zone in O(N^3) time and O(N^2) memory.
#pragma once

#include <string>

#include "sim/tiers.hpp"

namespace redist::sim {

std::string platform_xml(const Graph& graph);

// The power states of every simulated host: the machines' speeds (balance::kMachineSpeeds), as
// the attribute "22Mf,28Mf,...,172Mf"; and the power state of a speed among them (InputError
// "--speed" for a speed that is not one of them).
std::string machine_pstates();
std::size_t pstate_of(double speed);

}  // namespace redist::sim
