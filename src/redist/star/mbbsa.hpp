// STAR §3.4, Algorithms 3-4: the Moore-Based Binary-Search Algorithm (MBBSA).
//
// Decision (Algorithm 3, reconstructed from §3.4.3's four phases; the copy lost its line
// structure): Phases 1-2 of deadline_phases.hpp give the senders, their counts l_s and L_send;
// Phase 3 gives each receiver's deadlines M - k w_r (k = 1 .. cap_r, at most L_send of them);
// Phase 4 runs Moore's algorithm (moore.hpp) on the deadlines with processing time c_r, from
// t = c_{s1} (first arrival at the master). M is feasible when L_send deadlines are on time; the
// schedule forwards the k-th task to reach the master to the k-th on-time deadline's receiver.
// On homogeneous links (all c equal) Moore's scan is replaced by an equivalent O(L_send log m)
// test: if any L_send deadlines can be met, the L_send largest ones can (exchange argument), and
// they are met iff the j-th smallest of them is >= (j + 1) c.
//
// Search (Algorithm 4): instead of the paper's bisection down to a precision 1/lcm(denominators),
// a bisection over M whose upper end always jumps to the real makespan of the schedule built
// (a value the schedule achieves), stopped at a relative width of 1e-9; then, on homogeneous
// links, the strict test "makespan < M*" is run at the best makespan M* found: when it fails M*
// is proven optimal (Theorem 3), when it succeeds its (smaller) schedule replaces M* and the test
// repeats. Optimality therefore never rests on the floating-point width of the bisection.
// On heterogeneous links (a heuristic, §3.5) the best real makespan seen is returned.
//
// Guarantee (Theorem 3, Proposition 2): optimal on homogeneous links (`optimal`: true when the
// strict test proved it); tests compare with `exact`. Never worse than no redistribution.
// Complexity: O(log(1e9) (m log m + L log m)) on homogeneous links, L the tasks to move;
// heterogeneous links: O(log(1e9) (m log m + L + J log m)), J <= sum_r cap_r the deadlines
// Moore's scan needs before L_send of them are on time (they are merged lazily from the
// receivers' sorted lists, never all built and sorted).
#pragma once

#include <optional>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::star {

// Heterogeneous links: Moore's algorithm scans at most this many deadlines per decision (about
// 1 GB of scan state), else InputError (at $.star) naming bba and rbsa as the way around.
inline constexpr std::int64_t kMaxMooreJobs = 20000000;

// Algorithm 3 for the target makespan M (`strict`: makespan < M). Returns the schedule built when
// M is declared feasible.
std::optional<Schedule> mbbsa_decide(const Instance& instance, double makespan,
                                     bool strict = false);

// Work done on heterogeneous links, for tests and benchmarks: decisions taken, deadlines Moore's
// scan consumed, and deadlines it could have had to consume (sum of cap_r over the decisions).
struct MbbsaWork {
  std::int64_t decisions = 0;
  std::int64_t deadlines_scanned = 0;
  std::int64_t deadlines_available = 0;
};

Schedule plan_mbbsa(const Instance& instance, MbbsaWork* work = nullptr);

}  // namespace redist::star
