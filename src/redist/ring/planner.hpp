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
//    enough for `exact` (exact.hpp size limits), its proven optimum when it is shorter, or the
//    proof that the schedule found is optimal; when exact's node or time limit stops its search,
//    its best schedule if shorter (unproven, with exact's note), else the schedule found with
//    exact's note.
// So `auto` plans every valid ring.
//
// Every algorithm first refuses instances whose times might not be finite doubles
// (require_finite_times in model.hpp) and instances over the size limits of limits.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/ring/model.hpp"
#include "redist/ring/solver.hpp"

namespace redist::ring {

// The ring algorithms, (name, what it does and when it is optimal), `auto` first: the names plan
// accepts, listed in its errors and in the command line's help.
const std::vector<AlgorithmName>& ring_algorithm_names();

// The options of `redist ring plan`, with its defaults.
struct PlanOptions {
  std::string algorithm = "auto";  // one of ring_algorithm_names()
  Solver solver = Solver::fast;    // for the LP-based algorithms: exact combinatorial or CLP
  // Seconds the search of `exact` (alone or within `auto`) may take; past them it returns the
  // best schedule found, not proven optimal, with a note. Empty: no limit. OptionError at
  // "time_limit" unless finite and > 0.
  std::optional<double> time_limit = std::nullopt;
};

// The schedule, with its claims: lower_bound is the largest of the bound terms that apply to the
// instance's case (bounds.hpp; Lemma 12 up to kLemma12MaxProcessors, else a note) and those the
// algorithm proved (the exact optimum), all listed in bound_terms; optimal (with its proof) when
// the makespan meets it or a search proved it. OptionError at "algorithm" for an unknown algorithm
// or one that does not apply, at "solver" when the LP solver cannot take the ring; InputError for
// an invalid instance or one beyond the limits.
Schedule plan(const Instance& instance, const PlanOptions& options = {});

}  // namespace redist::ring
