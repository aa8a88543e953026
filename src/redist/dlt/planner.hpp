// STAR §5: divisible load on a switch (multiport, overlapped): LP 7 and equations 8-9, the
// planner (the model is model.hpp).
//
// LP 7: minimise T subject to |delta_i| <= T b_i (7a), delta_i >= alpha_i - T s_i (7b),
// sum_i delta_i = 0 (7c), plus delta_i <= alpha_i, which the paper leaves out: without it an
// optimum may let a worker send more load than it holds. Adding it never changes the optimal T:
// for a fixed T the constraints are boxes lo_i(T) <= delta_i <= hi_i(T) plus sum delta = 0, and
// with hi_i(T) = min(T b_i, alpha_i) >= 0 a box is non-empty under the same condition as before
// (alpha_i - T s_i <= T b_i, since alpha_i - T s_i <= alpha_i and -T b_i <= alpha_i always) and
// sum_i hi_i >= 0 still holds, so feasibility still reduces to sum_i lo_i(T) <= 0.
// Solvers:
//  - lp: the LP itself through redist/lp (COIN-OR CLP); its deltas are then moved into the boxes
//    (CLP meets constraints only to its tolerance) and re-balanced to sum to 0;
//  - fast: lo_i(T) = max(alpha_i - T s_i, -T b_i); the least feasible T needs every box
//    non-empty (T >= alpha_i / (s_i + b_i)) and sum_i lo_i(T) <= 0. sum lo_i is convex,
//    piecewise linear and non-increasing in T, with a breakpoint alpha_i / (s_i - b_i) for each
//    worker with s_i > b_i (where its lower end turns from alpha_i - T s_i to -T b_i), so the
//    least feasible T is found by sorting the breakpoints and solving one linear equation on the
//    right piece. The deltas are then lo_i + theta (hi_i - lo_i), one theta making them sum to 0.
// Schedule: the paper's equations 8-9 send f_ij = delta_i (-delta_j) / L from every sender i to
// every receiver j (S x R transfers). We keep eq. 9's constant rates f_ij / T over [0, T] but
// pair senders and receivers north-west-corner style (both in index order, each transfer
// exhausting a sender or a receiver): every sender still sends delta_i and every receiver still
// receives -delta_j at total rates |delta| / T <= b, so the makespan is the same, with at most
// S + R - 1 transfers.
//
// Guarantee: both solvers return the optimal T of LP 7 (tests: equal to 1e-7 relative on random
// instances, and every schedule passes validate.hpp); T = 0 when every alpha is 0.
// Rounding: alpha_i - T s_i cancels when a worker keeps a small part of its load. The deltas are
// kept inside their boxes (lower ends clamped to upper ends, shares measured from the nearer end,
// the sum's rounding residual moved onto the box with the most room, T raised by a few rounding
// units when no box has room), and plan takes as makespan the schedule's own finish as the
// validator computes it. It is LP 7's optimum to 1e-7 relative on every instance whose b, s and
// alpha span 12 orders of magnitude (tests: 2000 random ones); when the rounding costs more than
// kLpTolerance, `optimal` is false and lower_bound keeps the optimum; beyond kMaxRoundingCost the
// instance is refused.
// Complexity: fast O(m log m), transfers O(m); lp: CLP's.
//
// Limits and extreme values: validate_instance (model.hpp) refuses sums of alpha or of s and b that
// overflow a double, alpha_i / s_i that overflows (T is at most max_i alpha_i / s_i),
// alpha_i / (s_i + b_i) below the smallest normal double (the makespan would underflow) and a
// total load times (m + 1) that overflows. The boxes' lower ends are also kept >= -sum alpha (no
// worker can receive more than the total load when delta_i <= alpha_i, so the feasible deltas
// are the same), which keeps them finite when T s_i and T b_i overflow. Every number written is
// then finite.
#pragma once

#include <optional>

#include "redist/dlt/model.hpp"

namespace redist::dlt {

// A plan whose rounding takes its makespan more than this fraction above LP 7's optimum is
// refused: the values span more than double precision resolves.
inline constexpr double kMaxRoundingCost = 1e-6;

struct PlanOptions {
  Solver solver = Solver::fast;
  // LP 7 is solved in closed form or by CLP, never searched: a time limit is refused (OptionError
  // at "time_limit") rather than ignored.
  std::optional<double> time_limit = std::nullopt;
};

// The solvers fill makespan and delta only; add_transfers adds the transfers.
// The least feasible T of LP 7 (closed-form search) and feasible deltas.
Schedule solve_fast(const Instance& instance);
// LP 7 through CLP.
Schedule solve_lp(const Instance& instance);
Schedule solve(const Instance& instance, Solver solver);

// `dlt plan`: the optimal schedule with its transfers, lower_bound (LP 7's optimum) and optimal
// (by that bound, Proof::lower_bound), re-checked by validate.hpp, with solve_seconds. InputError
// at "alpha" beyond the solver's worker limit, at "" (the instance) when the values span more than
// double precision resolves so that the plan would fail its check or finish more than
// kMaxRoundingCost after the optimum.
Schedule plan(const Instance& instance, const PlanOptions& options = {});

// Adds the transfers (north-west corner, at most S + R - 1) for schedule.delta and .makespan.
void add_transfers(Schedule& schedule);

}  // namespace redist::dlt
