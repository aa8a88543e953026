// A drawing of a Tiers graph (sim/tiers.hpp) as SVG, for docs/ring-sim.md: every node at its grid
// position, coloured by level (filled: a host; hollow: a router), every edge a line coloured by
// class, a legend and a title. About 860 x 900 px whatever the graph; O(N + E).
#pragma once

#include <string>

#include "sim/tiers.hpp"

namespace redist::sim {

std::string platform_svg(const Graph& graph);

}  // namespace redist::sim
