// STAR §5: divisible load on a switch (multiport, overlapped): LP 7 and equations 8-9.
//
// LP 7: minimise T subject to |delta_i| <= T b_i (7a), delta_i >= alpha_i - T s_i (7b),
// sum_i delta_i = 0 (7c). Solvers:
//  - lp: the LP itself through redist/lp (COIN-OR CLP);
//  - fast: for a fixed T the constraints are boxes lo_i(T) = max(alpha_i - T s_i, -T b_i) <=
//    delta_i <= T b_i plus sum delta = 0, feasible iff every box is non-empty
//    (T >= alpha_i / (s_i + b_i)) and sum_i lo_i(T) <= 0 <= sum_i T b_i. sum lo_i is convex,
//    piecewise linear and non-increasing in T, with a breakpoint alpha_i / (s_i - b_i) for each
//    worker with s_i > b_i (where its lower end turns from alpha_i - T s_i to -T b_i), so the
//    least feasible T is found by sorting the breakpoints and solving one linear equation on the
//    right piece. The deltas are then lo_i + theta (T b_i - lo_i), one theta making them sum to 0.
// Schedule (eq. 8-9): sender i (delta_i > 0) sends f_ij = delta_i * (-delta_j) / L to every
// receiver j (delta_j < 0), L = sum of the positive deltas, at the constant rate f_ij / T.
//
// Guarantee: both solvers return the optimal T of LP 7 (tests: equal to 1e-9 relative on random
// instances); T = 0 when every alpha is 0. Complexity: fast O(m log m) plus O(S R) transfers
// (S senders, R receivers); lp: CLP's.
#pragma once

#include <string>
#include <vector>

namespace redist::star {

struct DltInstance {
  std::vector<double> b;      // bandwidths, > 0
  std::vector<double> s;      // speeds, > 0
  std::vector<double> alpha;  // initial loads, >= 0
};

struct DltTransfer {
  std::size_t from = 0, to = 0;
  double amount = 0;  // f_ij
  double rate = 0;    // f_ij / T
};

struct DltSchedule {
  std::string solver;
  double makespan = 0;
  std::vector<double> delta;
  std::vector<DltTransfer> transfers;
};

// Throws InputError (path relative to the instance object) on sizes, b or s not finite > 0, alpha
// not finite >= 0.
void validate_dlt_instance(const DltInstance& instance);

// The solvers fill makespan and delta only; dlt_transfers adds equations 8-9 (S x R of them).
// The least feasible T of LP 7 (closed-form search) and feasible deltas.
DltSchedule solve_dlt_fast(const DltInstance& instance);
// LP 7 through CLP.
DltSchedule solve_dlt_lp(const DltInstance& instance);
// Throws InputError at "--solver" for a name other than fast or lp.
DltSchedule solve_dlt(const DltInstance& instance, const std::string& solver);

// Adds the transfers of equations 8-9 for schedule.delta and schedule.makespan.
void dlt_transfers(DltSchedule& schedule);

}  // namespace redist::star
