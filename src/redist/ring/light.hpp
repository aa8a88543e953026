// Light redistributions on heterogeneous bidirectional rings (RRV04 §6.1-6.2.2; docs/formats.md
// algorithms `light` and `light-enforced`).
//
// A flow is light when every processor sends at most its initial load
// (S_{i,i+1} + S_{i,i-1} <= L_i): then Lemma 9's schedule (every P_i sends to succ(i) at time 0
// back to back, then to pred(i) as soon as its send port and pred(i)'s receive port are free)
// needs no forwarding wait and finishes exactly at the flow's System 6 time tau(x).
//
// plan_light: the integer optimum tau6 of System 6, which is a lower bound for every schedule.
//   Among the optimal flows a light one is preferred (the optimal x form an interval; it is
//   clamped to the light interval). Light => makespan == tau6, optimal (Lemma 9). Otherwise
//   it falls back as `auto` does: the shorter of `heuristic` (heuristic.hpp) and the
//   light-enforced schedule, with Schedule.light = false, `algorithm` naming the planner actually
//   used and a note saying why; optimal only if the makespan equals tau6.
// plan_light_enforced: the integer optimum of System 12 (System 6 + S_{i,i+1} + S_{i,i-1} <= L_i),
//   scheduled by Lemma 9 (valid since light); lower_bound = tau6, optimal when equal. When no
//   light flow exists, falls back to `heuristic` (with a note).
//
// Solvers (both exact, same makespan):
//  - fast: system6_integer_optimum (O(n log n), independent of the loads). The light constraints
//    are convex in x = flows[n-1]: processor i is light iff -prefix[i-1] - L_i <= x <=
//    -prefix[i] + L_i, so the light x form an integer interval [xl, xr] (O(n)); the System 12
//    optimum is the System 6 optimum clamped to it (tau is convex).
//  - lp: System 6 (or 12) as a rational LP (redist/lp, CLP), then Proposition 1: with R the net
//    flow over link n-1, floor(R) or ceil(R) is an optimal integer flow (Lemmas 10-11). For
//    System 12 the argument carries over: Lemma 11's shifted solution lies between an integer
//    optimum and R, hence inside [xl, xr]; and floor(R), ceil(R) are in [xl, xr] because its ends
//    are integers. Candidates are clamped to [xl, xr] against LP round-off.
// Complexity: fast O(n log n) plus O(n) for the schedule; lp: the LP solve (3n or 4n rows,
// 2n + 1 columns) plus O(n). When no optimal flow is light, choosing the canonical optimal flow
// adds O(n log range) (a binary search over the flat part of tau), plus the fallback's cost
// (heuristic.hpp).
// Throws InputError (at "--algorithm") on unidirectional rings.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "redist/ring/bounds.hpp"
#include "redist/ring/model.hpp"
#include "redist/ring/solver.hpp"

namespace redist::ring {

Schedule plan_light(const Instance& instance, Solver solver = Solver::fast);
Schedule plan_light_enforced(const Instance& instance, Solver solver = Solver::fast);

// True when every processor sends at most its initial load under the net flows.
bool is_light(const Instance& instance, const std::vector<std::int64_t>& flows);

// Lemma 9's schedule for light net flows (counts of 0 omitted). Precondition: is_light.
std::vector<Run> lemma9_schedule(const Instance& instance, const std::vector<std::int64_t>& flows);

// The integer optimum of System 6 by the LP solver and Proposition 1's rounding.
System6Solution system6_lp_optimum(const Instance& instance);

// The integer optimum of System 12 (light flows only); std::nullopt when no light flow exists.
std::optional<System6Solution> system12_integer_optimum(const Instance& instance, Solver solver);

}  // namespace redist::ring
