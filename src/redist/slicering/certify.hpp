// Claims that survive rounding (docs/slicering.md, "What optimal means under rounding").
//
// The planners compute in doubles, rounded to nearest. IEEE 754 returns the double nearest to the
// exact result of each operation, so that exact result lies between the two neighbours of the
// rounded one, at every magnitude, subnormals included (after an overflow to inf, the upper
// neighbour inf is still an upper bound and the lower one, the largest double, a lower one).
// down(x) and up(x) step to those neighbours. A formula whose exact value grows with each of its
// operands (sums, products and quotients of non-negative numbers, a difference in its first
// operand, a quotient in its numerator), evaluated with down (up) around every operation and lower
// (upper) bounds as operands, gives a lower (upper) bound on its exact value: interval arithmetic
// with outward steps of one unit in the last place. It refuses nothing: where values underflow or
// cancel, the bounds only get looser, and a claim that needs them tight is dropped.
//
// The SliceRing planners' guarantee (planner.hpp): every reported lower_bound is at most the exact
// optimum T_step over the rings of the problem solved, computed with these steps (bounds.hpp,
// tsp.hpp, homogeneous.hpp) or from a rounding analysis of the search (exact.hpp); and
// `optimal: true` only when t_step_upper of the returned plan is at most that lower_bound times
// (1 + kTimeTolerance): the plan is then within a relative 1e-9 of the exact optimum.
// Complexity: O(q) per ring or plan.
#pragma once

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "redist/common/result.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

// The argument above needs each double operation rounded once, to nearest: no x87 extended
// precision.
static_assert(std::numeric_limits<double>::is_iec559 && FLT_EVAL_METHOD == 0);

// The double just below (above) x: a lower (upper) bound on the exact result of the operation
// that returned x. std::nextafter(x, -inf), inlined: a step of one in the representation (which
// orders positive doubles, +inf after the largest, and negative ones in reverse).
inline double down(double x) {
  if (x == 0) [[unlikely]]
    return -std::numeric_limits<double>::denorm_min();
  if (!(x > -std::numeric_limits<double>::infinity())) [[unlikely]]
    return x;  // -inf, NaN
  const auto bits = std::bit_cast<std::int64_t>(x);
  return std::bit_cast<double>(bits + (x > 0 ? -1 : 1));
}
inline double up(double x) { return -down(-x); }

// a + b rounded down (up): the rounded sum, stepped only when the exact sum lies on that side of
// it. The rounding error of a sum is itself a double, recovered exactly by Knuth's TwoSum, so
// exact sums (every sum whose result is subnormal, for one) cost nothing.
inline double add_down(double a, double b) {
  const double sum = a + b;
  if (!std::isfinite(sum)) [[unlikely]]
    return down(sum);
  const double b_part = sum - a;
  const double error = (a - (sum - b_part)) + (b - b_part);
  const double lowered = down(sum);  // selected without a branch: the error's sign is random
  return error < 0 ? lowered : sum;
}
// Rounding to nearest is symmetric: -((-a) + (-b)) is a + b, and its error changes sign with it.
inline double add_up(double a, double b) { return -add_down(-a, -b); }

// Unit roundoff of doubles, 2^-53: one rounding to nearest changes a normal result by at most this
// fraction of it.
inline constexpr double kUnitRoundoff = std::numeric_limits<double>::epsilon() / 2;

// At most the exact H (c_ij / w_i + c_ji / w_j) (Cluster::edge, in its order); symmetric in i and
// j (the sum is formed in the same order for both). Inline: O(p^2) loops call it.
inline double edge_lower(const Cluster& cl, std::size_t i, std::size_t j) {
  const std::size_t a = std::min(i, j), b = std::max(i, j);
  return add_down(down(down(cl.H * cl.cost(a, b)) / cl.w[a]),
                  down(down(cl.H * cl.cost(b, a)) / cl.w[b]));
}
// At most the exact edge weight that Cluster::edge rounded to `rounded`. Its 5 roundings are
// relative (H c is normal, check_cluster_range) except the two quotients, which may each be off by
// 2^-1075 when subnormal: exact >= rounded (1 - 3u) - 3 2^-1075 >= rounded (1 - 4u) when rounded is
// at least 2^-1019; 0 below. For weights already formed, at the cost of one product.
inline double edge_lower_from_rounded(double rounded) {
  return rounded >= 0x1p-1019 ? down(rounded * (1 - 4 * kUnitRoundoff)) : 0.0;
}
// At most (at least) the exact comm of ring[k], H (c[i][pred] + c[i][succ]); 0 for one processor.
double comm_lower(const Cluster& cluster, const std::vector<std::size_t>& ring, std::size_t k);
double comm_upper(const Cluster& cluster, const std::vector<std::size_t>& ring, std::size_t k);
// At least the exact sum of 1/w_i over `members`.
double inverse_upper(const Cluster& cluster, const std::vector<std::size_t>& members);
// At most the exact (W + tour) / inverse for the lower bound `tour` and the upper bound `inverse`:
// SLICE Eq. 3.
inline double eq3_lower(const Cluster& cl, double tour, double inverse) {
  return down(add_down(cl.W, tour) / inverse);
}

// At most the exact optimum of the ring over its shares, max(F, max comm) (model.hpp, fact 2).
double ring_t_step_lower(const Cluster& cluster, const std::vector<std::size_t>& ring);

// At least the exact T_step (SLICE Eq. 1) of the ring with shares alpha_k / sum alpha (so that
// they sum to exactly 1); inf when the shares sum to 0.
double t_step_upper(const Cluster& cluster, const std::vector<std::size_t>& ring,
                    const std::vector<double>& alpha);

// Sets solution.optimal (with `proof`) exactly when t_step_upper of its ring and shares is at most
// its lower_bound (which the caller has certified) up to kTimeTolerance (at_most); otherwise
// optimal false, Proof::none.
void claim_optimal_if_certified(const Cluster& cluster, Solution& solution, Proof proof);

}  // namespace redist::slicering
