// `redist lau plan --algorithm NAME --mode single|multi` (docs/lau.md): dispatch by name, and the
// plan's claims in its mode.
//
// makespan: the plan's time in options.mode (infinity when it deadlocks); lower_bound: the
// optimum in that mode over every valid schedule, computed by the optimal planner (O(n log n));
// optimal when the makespan equals it (Proof::lower_bound, compared on the exact integer times).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/lau/model.hpp"

namespace redist::lau {

struct PlanOptions {
  std::string algorithm = "optimal";  // a name of algorithm_names()
  Mode mode = Mode::single;           // the send mode planned for and reported in makespan
  // Lau's algorithms are polynomial and never search: a time limit is refused (OptionError at
  // "time_limit") rather than ignored.
  std::optional<double> time_limit = std::nullopt;
};

// An algorithm or a mode as `--algorithm` and `--mode` name and describe them.
using AlgorithmName = redist::AlgorithmName;
// optimal, linear, traffic, optimal-window: the names `plan` accepts, for the help and the errors.
const std::vector<AlgorithmName>& algorithm_names();
// single, multi.
const std::vector<AlgorithmName>& mode_names();

// The plan of options.algorithm with its claims (above) and solve_seconds. OptionError at
// "algorithm" for an unknown name; InputError for an invalid instance.
Plan plan(const Instance& instance, const PlanOptions& options = {});

// single | multi; OptionError at "mode" otherwise.
Mode parse_mode(const std::string& name);

}  // namespace redist::lau
