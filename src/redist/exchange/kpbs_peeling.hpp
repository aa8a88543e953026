// The peeling of `ggp` and `oggp` (kpbs.hpp, steps (1) to (3)), open to their tests: the
// weight-regular graph of an instance and the perfect matchings peeled off it. Not part of the
// public API: the planners are plan_ggp and plan_oggp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange::kpbs_peeling {

// An edge of the weight-regular graph: `message` is the index of its message, -1 for padding.
struct Edge {
  std::uint32_t left = 0, right = 0;
  std::int64_t remaining = 0;  // units
  std::int64_t message = -1;
};

struct Graph {
  std::size_t vertices = 0;  // on each side
  std::int64_t regular = 0;  // R: every vertex's weighted degree, in units
  std::vector<Edge> edges;
};

// A stretch [begin, end) of units during which a message is matched.
struct Stretch {
  std::int64_t begin, end;
};

// Step (1): each message's weight w = ceil(d / alpha) >= 1, in units alpha.
std::vector<std::int64_t> units_of(const Instance& instance);

// Step (2): the weight-regular graph of the messages weighing `units`.
Graph graph_of(const Instance& instance, const std::vector<std::int64_t>& units);

// Sees each perfect matching before it is peeled: the graph with its remaining weights at that
// time, and the matched edge of each left vertex.
using Observer = std::function<void(const Graph&, const std::vector<std::uint32_t>&)>;

// Step (3): peels `graph` to nothing, with any perfect matchings (ggp) or bottleneck ones
// (`bottleneck`: oggp), and returns the stretches of each of the `messages` messages. Throws
// OptionError at "algorithm" as soon as the step schedule passes kMaxStepPieces pieces.
std::vector<std::vector<Stretch>> peel(Graph graph, std::size_t messages, bool bottleneck,
                                       const Observer& observe = {});

}  // namespace redist::exchange::kpbs_peeling
