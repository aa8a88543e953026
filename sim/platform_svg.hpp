// A drawing of a Tiers graph (sim/tiers.hpp) as SVG, for docs/ring-sim.md: every node at its grid
// position, coloured by level (filled: a host; hollow: a router), every edge a line coloured by
// class, a legend and a title. About 860 x 900 px whatever the graph; O(N + E). The hosts of
// `ring` (node indices in ring order, e.g. random_ring's) are circled in black and numbered by
// their position in the ring, so that the picture shows where the execution ring lies.
#pragma once

#include <string>

#include "sim/tiers.hpp"

namespace redist::sim {

#include <cstdint>
#include <vector>

std::string platform_svg(const Graph& graph, const std::vector<std::int64_t>& ring = {});

}  // namespace redist::sim
