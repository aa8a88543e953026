// SLICE §5.1 and §6.1: the TSP-based heuristic (all processors on the ring).
//
// With all p processors active, T_step = (W + tour)/sum 1/w (Eq. 3) whenever no processor is
// saturated by its communication, so the best ring is a shortest Hamiltonian cycle for the
// symmetric weight d(i,j) = H (c_ij/w_i + c_ji/w_j) (the corrected form of the paper's d_ij; see
// the papers' README). LKH is not available; redist uses its own local search:
//  - nearest-neighbour start; K = 10 nearest neighbours per city;
//  - 2-opt and Or-opt (segments of 1-3 cities, both orientations) restricted to neighbour lists,
//    with don't-look bits, first improvement, array tour (reversal of the shorter side);
//  - iterated local search: double-bridge kicks, keeping the best tour; up to p = 2000 random
//    kicks on a copy of the tour (2000 up to p = 200, 200 above), beyond 20,000 local ones, whose
//    three cuts lie within 100 consecutive positions, applied in place as logged reversals (Or-opt
//    moves too) and undone when they do not pay, so a kick costs O(window) plus its moves.
// Measured at p = 4000 (tour over the 1-tree bound, which 500 subgradient iterations instead of
// 125 raise by less than 0.01%): the local kicks take a tour of 2-opt and Or-opt from 1.041 to
// 1.008 on random points of a square (the benchmark), 1.109 to 1.060 on random_cluster (c
// log-uniform over two decades) and 1.031 to 1.020 on its symmetric variant, for about 1 s; on
// c uniform in [0, 1] (a random matrix, where 2-opt and Or-opt are weak) from 1.59 to 1.31. There
// the tour is the weak part, not the bound: a million local kicks (a minute) reach 1.100, and at
// p = 1000 200,000 kicks reach 1.059, so the bound is within 10% (6% at p = 1000) of the optimum.
// Closer tours on such matrices need deeper moves (Lin-Kernighan, as LKH).
// The tour is bounded below by the shortest tour itself for p <= kExactTourMaxCities (Held-Karp
// dynamic programming, O(2^p p^2)), else by the Held-Karp 1-tree bound (subgradient ascent on
// node penalties, weak on clustered platforms: 40-60% below the optimal tour on 12 processors in
// two sites), which gives `tour_lower_bound` and, through Eq. 3, a lower bound on T_step over
// all rings of the p processors. Unless `--q p` restricts the problem to those rings,
// `lower_bound` is ring_size_bound (bounds.hpp: exact for 1 and 2 processors, the cheapest-links
// relaxation for more, that tour bound too for all p), since a smaller ring may beat every full
// one. Every bound is certified under rounding (certify.hpp): the exact tour's DP runs on the
// weights rounded down and its result is scaled by 1 - p u (u = 2^-53), the 1-tree is evaluated
// with outward steps, Eq. 3 rounds down.
// Guarantee: a valid all-processor ring; optimal only when the upper bound on its T_step meets
// `lower_bound` (claim_optimal_if_certified).
// Complexity: O(p^2) memory (the weight matrix), O(p^2 log K) for the neighbour lists, local
// search typically O(p K) per pass plus O(p) per applied move, a local kick O(window) plus its
// moves (about 50 us each at p = 4000); the bound O(p^2) per iteration.
#pragma once

#include <cstdint>
#include <optional>

#include "redist/slicering/model.hpp"

namespace redist::slicering {

// Local search on a symmetric n x n row-major weight matrix; returns a tour (a permutation).
std::vector<std::size_t> tsp_tour(const std::vector<double>& d, std::size_t n,
                                  std::uint64_t seed = 1);
// The Held-Karp 1-tree bound: subgradient ascent on node penalties pi, `iterations` 1-trees (0:
// 100 up to n = 1000, then about 2 * 10^9 / n^2, at least 10, so that n = 10^4 stays within about
// 5 s); upper, a known tour length, steers the steps. Returns the penalties of its best 1-tree
// (all 0 for n <= 3).
std::vector<double> one_tree_penalties(const std::vector<double>& d, std::size_t n, double upper,
                                       std::size_t iterations = 0);
// A lower bound on every tour for the exact weights that d holds rounded (d symmetric, d(i, j)
// as Cluster::edge computes it, n >= 3), whatever the penalties: the minimum 1-tree for
// d(i, j) + pi_i + pi_j, minus 2 sum pi, each weight lowered by its rounding error
// (edge_lower_from_rounded) and every sum rounded outward (certify.hpp), so that rounding never
// lifts it above the shortest tour. O(n^2).
double one_tree_lower_bound(const std::vector<double>& d, std::size_t n,
                            const std::vector<double>& penalties);

// Held-Karp's exact tour (lower bound) for at most this many cities: 2^15 x 15 doubles (4 MB).
inline constexpr std::size_t kExactTourMaxCities = 16;
// The length of a shortest tour (n <= kExactTourMaxCities). O(2^n n^2) time, O(2^n n) memory.
double shortest_tour_length(const std::vector<double>& d, std::size_t n);

// `q`, when given, must be p (InputError at --q otherwise).
Solution plan_tsp(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);

}  // namespace redist::slicering
