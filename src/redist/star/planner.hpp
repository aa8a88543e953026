// `redist star plan --algorithm NAME` (docs/star.md): dispatch, the lower bound, `best`.
//
// Names: bba (bba.hpp), mbbsa and mbbsa-lazy (mbbsa.hpp), rbsa (rbsa.hpp), exact (exact.hpp),
// best.
//
// lower_bound: star_lower_bound (lower_bound.hpp: computation, the master's two ports, each
// receiver's capacity), or the makespan once it is proven optimal. `optimal` is true, with its
// `proof`, when the makespan meets that bound (Proof::lower_bound), when a theorem applies
// (Proof::theorem: BBA on a fully homogeneous platform, STAR §3.3, Proposition 1; MBBSA on
// homogeneous links when its strict test proved it, STAR §3.4, Theorem 3), or when exact's search
// completes (Proof::search).
// When exact accepts the instance (exact.hpp: at most 6 workers and 40 tasks) and the heuristic
// is not proven optimal, exact runs from the heuristic's schedule within kBestExactNodes nodes:
// if it finds nothing better the schedule is proven optimal (note "optimality proven by
// exhaustive search (exact)"); otherwise its bound raises lower_bound (note "exact finds a
// makespan of X" when it found better; the heuristic's schedule is still the one returned).
//
// best: the valid schedule (each re-checked by validate.hpp) of smallest makespan among bba,
// mbbsa and rbsa, the paper's three (mbbsa-lazy is not run; ties: the earlier in that list; the
// later ones are not run once one is proven optimal), then exact from it as above, whose strictly
// better schedule replaces it (algorithm "exact"). Notes say what ran and which algorithm won
// ("best of bba, mbbsa, rbsa, exact: NAME"). Complexity: that of the algorithms, O(m log m) per
// step of the bound's ~64-step bisection, and at most kBestExactNodes nodes of exact (about 1 s).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/star/lower_bound.hpp"
#include "redist/star/model.hpp"

namespace redist::star {

// The planners write one transfer per moved task (about 70 bytes of JSON each) and MBBSA/R-BSA
// hold per-task arrays: instances with more tasks in total are refused (InputError at
// loads) rather than writing gigabytes or running for minutes.
inline constexpr std::int64_t kMaxPlannedTasks = 10000000;
// R-BSA places every task at each of its ~40 bisection steps: beyond this many tasks in total it
// runs for many minutes, and is refused (`best` skips it with a note).
inline constexpr std::int64_t kMaxRbsaTasks = 2000000;

// Node budget of exact inside `best` and the heuristics (about 1 s on one core).
inline constexpr std::int64_t kBestExactNodes = 2000000;

struct PlanOptions {
  std::string algorithm = "best";  // a name of algorithm_names()
  // Seconds exact's search (alone, or after the heuristics) may take; past them it stops as at its
  // node cap: the best schedule found, its bound and a note. Empty: no limit. OptionError at
  // "time_limit" unless finite and > 0.
  std::optional<double> time_limit = std::nullopt;
};

// An algorithm `plan` runs, as `--algorithm` names and describes it.
using AlgorithmName = redist::AlgorithmName;
// best, bba, mbbsa, mbbsa-lazy, rbsa, exact: the names `plan` accepts, for the help and the errors.
const std::vector<AlgorithmName>& algorithm_names();

// The schedule of options.algorithm with its claims (above) and solve_seconds. OptionError at
// "algorithm" for an unknown name; InputError for an invalid instance or one beyond the limits
// (kMaxPlannedTasks).
Schedule plan(const Instance& instance, const PlanOptions& options = {});

}  // namespace redist::star
