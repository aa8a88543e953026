// Chooses and runs a ring planner by name (docs/formats.md, `redist ring plan --algorithm NAME`).
//
// `auto` picks, per case:
//  - unidirectional rings: `unidirectional` (RRV04 Algorithms 1-2, optimal);
//  - homogeneous bidirectional rings: `bidirectional-homogeneous` (Algorithm 3, optimal under the
//    paper's assumptions); when zero loads or targets defeat its guarantee, the better of it and
//    the heterogeneous path below; beyond Algorithm 3's round limit
//    (kBidirectionalHomogeneousMaxSteps), the heterogeneous path, with the Lemma 6 bound;
//  - heterogeneous bidirectional rings: `light` when an optimal System 6 flow is light (optimal,
//    Lemma 9), otherwise the better of `heuristic` and `light-enforced`; and on rings small
//    enough for `exact` (exact.hpp limits), its proven optimum when it is shorter, or the proof
//    that the schedule found is optimal.
// So `auto` plans every valid ring.
//
// Every algorithm first refuses instances whose times might not be finite doubles
// (require_finite_times in model.hpp) and instances over the size limits of limits.hpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/ring/model.hpp"
#include "redist/ring/solver.hpp"

namespace redist::ring {

// Names accepted by plan_ring, in the order of docs/formats.md's table.
const std::vector<std::string>& ring_algorithm_names();

// Throws InputError (path "--algorithm") for an unknown name or one that does not apply.
Schedule plan_ring(const Instance& instance, std::string_view algorithm,
                   Solver solver = Solver::fast);

}  // namespace redist::ring
