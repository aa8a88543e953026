// Lower bounds on the optimal SliceRing T_step (SLICE Eq. 1 and Eq. 3) that need no exponential
// search: what `auto` reports when the cluster is too large for `exact` (docs/slicering.md).
//
// Ring sizes 1 and 2 are solved exactly: one processor takes W w_i, and a pair {i, j} has one ring,
// of T_step max((W + 2 d(i,j)) / (1/w_i + 1/w_j), 2 H c_ij, 2 H c_ji) (model.hpp, fact 2).
//
// Ring sizes q >= 3: the cheapest-links relaxation. Let m_i = H (c1_i + c2_i), with c1_i <= c2_i
// the two cheapest capacities c[i][j], j != i, over the whole cluster.
// Claim: every ring R of q >= 3 processors has T_step(R) >= max(L_q, m_(q)), where m_(q) is the
// q-th smallest m_i and L_q = min over sets S with |S| = q of (W + sum_S m_i / w_i) / sum_S 1/w_i.
// Proof. In a ring of q >= 3 members, member i's predecessor and successor are two distinct
// processors other than i, so comm_i = H (c[i][pred] + c[i][succ]) >= m_i. By fact 2 of model.hpp,
// T_step(R) >= F(R) = (W + sum_R comm_i / w_i) / sum_R 1/w_i >= (W + sum_R m_i / w_i) /
// sum_R 1/w_i >= L_q; and T_step(R) >= max_R comm_i >= max_R m_i >= m_(q), since R holds q
// distinct processors. The minimum over sizes q in [a, b] is at least the same minimum over
// sets S with a <= |S| <= b (and at least m_(a)).
// That minimum ratio is found by Dinkelbach's parametrisation: for a level lambda let
// h(lambda) = W + min over such S of sum_S (m_i - lambda) / w_i (the a smallest terms, then every
// other negative one up to b terms). If h(lambda) > 0, every S has W + sum_S m_i/w_i >
// lambda sum_S 1/w_i, so lambda is a lower bound; h decreases continuously, and bisection on it
// returns such a lambda within a relative 1e-15 of the minimum.
// Under rounding (certify.hpp): every bound here is evaluated with outward steps, so that it is at
// most the exact optimum it bounds, whatever the magnitudes (a bound whose terms underflow or
// cancel is only looser): W w_min and each pair's T_step rounded down (1/w_i rounded up in
// Eq. 3), m_i rounded down, and a lambda kept only where h(lambda), each term and partial sum
// rounded down, is still > 0.
// Complexity: O(p^2) for the pair scan (a pair whose 2 H c or W / (1/w_i + 1/w_j) already reaches
// the best bound so far is passed over) and the two cheapest links of each row; O(p log p) per
// bisection step, at most 200 steps.
#pragma once

#include <optional>
#include <vector>

#include "redist/slicering/model.hpp"

namespace redist::slicering {

// The bisection of the cheapest-links bound stops within this fraction of the minimum (a few
// rounding units: the bound is then as tight as a double can say), or after kBisectionSteps.
inline constexpr double kBisectionPrecision = 1e-15;
inline constexpr int kBisectionSteps = 200;

// A lower bound on T_step over every ring of a size in [a, b], 3 <= a <= b <= p.
double cheapest_links_bound(const Cluster& cluster, std::size_t a, std::size_t b);

// A lower bound on the optimal T_step over every ring size (or ring size q when given): the exact
// optima of sizes 1 and 2, the cheapest-links bound for sizes >= 3; rings of all p processors
// are bounded by the larger of that and `full_ring_bound` when given (e.g. Eq. 3 with a bound on
// every Hamiltonian tour; the caller certifies it under rounding too).
double ring_size_bound(const Cluster& cluster, std::optional<std::size_t> q,
                       std::optional<double> full_ring_bound = std::nullopt);

}  // namespace redist::slicering
