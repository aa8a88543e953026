// `redist star plan --algorithm NAME` (docs/star.md): dispatch, the lower bound, `best`.
//
// Names: bba (bba.hpp), mbbsa (mbbsa.hpp), rbsa (rbsa.hpp), exact (exact.hpp), best (the valid
// schedule of smallest makespan among bba, mbbsa and rbsa, each re-checked by validate.hpp; ties
// go to the earlier in that list).
//
// lower_bound: the computation bound, the least M with sum_i floor(M / w_i) >= sum_i L_i (no
// worker can compute more than floor(M / w_i) tasks by M, whatever the communications).
// `optimal` is true when the makespan meets it, or when a theorem applies: exact; BBA on a fully
// homogeneous platform (Proposition 1); MBBSA on homogeneous links when its strict test proved it
// (Theorem 3).
// Complexity: that of the algorithm, plus O(m log(total)) for the bound.
#pragma once

#include <string>

#include "redist/star/lower_bound.hpp"
#include "redist/star/model.hpp"

namespace redist::star {

// The least M with sum_i floor(M / w_i) >= sum_i L_i (lower_bound.cpp).
double computation_lower_bound(const Instance& instance);

// The planners write one transfer per moved task (about 70 bytes of JSON each) and MBBSA/R-BSA
// hold per-task arrays: instances with more tasks in total are refused (InputError at
// loads) rather than writing gigabytes or running for minutes.
inline constexpr std::int64_t kMaxPlannedTasks = 10000000;
// R-BSA places every task at each of its ~40 bisection steps: beyond this many tasks in total it
// runs for many minutes, and is refused (`best` skips it with a note).
inline constexpr std::int64_t kMaxRbsaTasks = 2000000;

// `best` runs exact (when it accepts the instance) with this node budget: about 0.2 s at most.
inline constexpr std::int64_t kBestExactNodes = 2000000;

// OptionError at "algorithm" for an unknown name.
Schedule plan_star(const Instance& instance, const std::string& algorithm);

}  // namespace redist::star
