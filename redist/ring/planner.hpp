// Chooses and runs a ring planner by name (SPEC §2, `redist ring plan --algorithm NAME`).
//
// `auto` picks the optimal algorithm that applies: `unidirectional` (RRV04 Algorithms 1-2) on
// unidirectional rings, `bidirectional-homogeneous` (Algorithm 3) on bidirectional rings whose
// costs are all equal. Heterogeneous bidirectional rings are not handled yet (RRV04 §6 arrives
// with the light/heuristic/exact planners): auto reports so as an InputError.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/ring/model.hpp"

namespace redist::ring {

enum class Solver { fast, lp };

// Names accepted by plan_ring, in the order of SPEC §2's table.
const std::vector<std::string>& ring_algorithm_names();

// Throws InputError (path "--algorithm") for an unknown name or one that does not apply.
Schedule plan_ring(const Instance& instance, std::string_view algorithm,
                   Solver solver = Solver::fast);

}  // namespace redist::ring
