// `redist slicering plan --algorithm NAME [--q Q]` (docs/slicering.md): dispatch to the SLICE
// planners. Names: auto (the default: exact when fast, else the better of greedy and tsp, always
// with a lower bound; auto.hpp), homogeneous (Proposition 1), greedy (§6.2), tsp (§6.1), exact
// (Held-Karp + branch and bound). Unknown names and a q outside [1, p] are OptionErrors at
// algorithm / q; a cluster outside the double range (check_cluster_range) or above an algorithm's
// size limit is an InputError.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

// The SliceRing algorithms, (name, what it does and what it proves), `auto` first: the names plan
// accepts, listed in its errors and in the command line's help.
const std::vector<AlgorithmName>& slicering_algorithm_names();

// The options of `redist slicering plan`, with its defaults.
struct PlanOptions {
  std::string algorithm = "auto";                       // one of slicering_algorithm_names()
  std::optional<std::size_t> ring_size = std::nullopt;  // q: force the size of the ring
  // Seconds exact's branch and bound (alone or within auto) may take; past them, auto's heuristic
  // solution with its lower bound and a note. Empty: no limit. OptionError at "time_limit" unless
  // finite and > 0.
  std::optional<double> time_limit = std::nullopt;
};

// The solution with makespan (T_step), lower_bound when the algorithm proves one (0 otherwise),
// and optimal with its proof (for the problem solved: of the forced size when ring_size is given).
// Both hold under rounding (certify.hpp): lower_bound is at most the exact optimum, and optimal
// means the plan's exact T_step is within a relative kTimeTolerance of it.
// OptionError at "algorithm" or "q"; InputError for a cluster outside the model's ranges or an
// algorithm's limit.
Solution plan(const Cluster& cluster, const PlanOptions& options = {});

}  // namespace redist::slicering
