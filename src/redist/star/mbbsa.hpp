// STAR §3.4, Algorithms 3-4: the Moore-Based Binary-Search Algorithm (MBBSA).
//
// Decision (Algorithm 3, reconstructed from §3.4.3's four phases; the copy lost its line
// structure): Phases 1-2 of deadline_phases.hpp give the senders, their counts l_s and L_send;
// Phase 3 gives each receiver's deadlines M - k w_r (every k = 1 .. cap_r); Phase 4
// (moore_phase.hpp) runs Moore's algorithm (moore.hpp) on all of them with processing time c_r,
// from t = c_{s1} (first arrival at the master). M is feasible when at least L_send receptions
// are on time; the k-th task to reach the master is then forwarded to the receiver of the k-th of
// them in deadline order (the first L_send of sigma).
// On homogeneous links the bisection below only needs the decision, computed without Moore's
// scan: by Theorem 3's argument Moore's scan keeps at least L_send receptions iff some L_send
// deadlines can all be met, iff the L_send largest can (exchange argument), iff the j-th smallest
// of them is >= (j + 1) c; the receivers of a schedule are always Algorithm 3's.
//
// Search (Algorithm 4): instead of the paper's bisection down to a precision 1/lcm(denominators),
// a bisection over M, stopped at a relative width of 1e-9, that keeps the best real makespan of
// the schedules built; on homogeneous links it then runs the strict test "makespan < M*" at the
// best makespan M* found: when it fails M* is proven optimal (Theorem 3), when it succeeds its
// (smaller) schedule replaces M* and the test repeats. Optimality therefore never rests on the
// floating-point width of the bisection. On heterogeneous links (a heuristic, §3.5) the best real
// makespan seen is returned.
//
// `plan_mbbsa_lazy` (`mbbsa-lazy`) is the same search with moore_phase.hpp's lazy Phase 4 (fewer
// deadlines scanned, same decisions, other receivers): not the paper's algorithm, kept because it
// is better on some heterogeneous-link platforms (docs/star.md gives the measured difference).
//
// Guarantee (Theorem 3, Proposition 2): optimal on homogeneous links (`optimal`: true when the
// strict test proved it); tests compare with `exact`. Never worse than no redistribution.
// Complexity: O(log(1e9) (m log m + L log m)) on homogeneous links, L the tasks to move (plus the
// receivers' jumps of moore_phase.hpp for the few schedules built); heterogeneous links:
// O(log(1e9) (m log m + L + L_recv log m)), L_recv the deadlines of all receivers at each
// decision (at most kMaxMooreJobs, else InputError); mbbsa-lazy scans at most
// sum_r min(L_send, cap_r) of them.
#pragma once

#include <optional>
#include <vector>

#include "redist/star/model.hpp"
#include "redist/star/moore_phase.hpp"

namespace redist::star {

enum class MooreStep {
  paper,  // Algorithm 3 as printed (`mbbsa`)
  lazy,   // moore_phase.hpp's lazy variant (`mbbsa-lazy`)
};

// Algorithm 3 for the target makespan M (`strict`: makespan < M). Returns the receiver of each
// forwarded task (in forwarding order) when M is declared feasible.
std::optional<std::vector<std::size_t>> mbbsa_receivers(const Instance& instance, double makespan,
                                                        bool strict = false,
                                                        MooreStep step = MooreStep::paper);

// The same, returning the schedule built (forwards as early as possible).
std::optional<Schedule> mbbsa_decide(const Instance& instance, double makespan, bool strict = false,
                                     MooreStep step = MooreStep::paper);

Schedule plan_mbbsa(const Instance& instance, MbbsaWork* work = nullptr);
Schedule plan_mbbsa_lazy(const Instance& instance, MbbsaWork* work = nullptr);

}  // namespace redist::star
