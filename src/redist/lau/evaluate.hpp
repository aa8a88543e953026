// `redist lau eval` (docs/lau.md): both execution times of given flows, by simulation where that is
// quick and by the closed forms (closed_forms.hpp, proven equal and tested against the simulation)
// where it is not.
//
// Single-send is always simulated (event driven, O(n)). Multi-send is simulated step by step while
// that costs at most `budget` node-steps (one step costs O(n)); a longer run (flows far above the
// loads need up to |flow| / (sum of loads) x n steps) uses the closed form instead, O(n log n), so
// that flows of 10^18 are answered at once. `multi_by_simulation` tells which was used.
#pragma once

#include <cstdint>

#include "redist/lau/model.hpp"

namespace redist::lau {

// 2 x 10^6 node-steps: a few milliseconds of simulation.
inline constexpr std::int64_t kEvalSimulationBudget = 2'000'000;

struct Evaluation {
  Time t_single, t_multi;
  bool multi_by_simulation = true;
  std::int64_t traffic = 0;
  std::int64_t h = 0;  // flows = linear - h
};

// Requires flows that balance every node (unbalanced_node empty). InputError at "flows" when the
// traffic, a time or h leaves int64.
Evaluation evaluate(const Instance& instance, const std::vector<std::int64_t>& flows,
                    std::int64_t budget = kEvalSimulationBudget);

}  // namespace redist::lau
