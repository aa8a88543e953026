// SLICE §6.2: the greedy heuristic that grows a ring one processor at a time.
//
// Start from the fastest processor (smallest w, lowest index on ties). At each step, try every
// remaining processor in every gap of the current ring and keep the insertion whose ring has the
// smallest T_step with optimal shares (ties: smaller tour cost, then first found); record that
// T_step. The ring grows to all p processors and the best size is returned (T_step need not be
// monotone in q, so every size is tried). The paper leaves "insertion cost" undefined; redist uses
// the resulting T_step, the quantity the heuristic is meant to minimise.
// Each candidate is evaluated in O(1): T_step = max((W + tour)/sum 1/w, max comm) with the tour
// cost updated by the two new edges and the largest comm outside the gap kept in a top-3 list.
// Guarantee: a valid solution; no optimality claim. Complexity: O(p^3 / 6) time, O(p^2) memory (c's
// transpose, read row by row).
#pragma once

#include <optional>

#include "redist/slicering/model.hpp"

namespace redist::slicering {

// p^3/6 = 1.3e9 candidate evaluations at this size (53 s measured on a loaded 2-core machine;
// p = 3000 took over 4 minutes); larger clusters are refused.
inline constexpr std::size_t kGreedyMaxProcessors = 2000;

struct GreedyTrace {
  Solution best;                       // the best ring of any size (or of size q when forced)
  std::vector<double> t_step_by_size;  // entry r-1: T_step of the greedy ring of r processors
};

// With `q`, the growth stops at size q and that ring is returned.
GreedyTrace greedy_trace(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);
Solution plan_greedy(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);

}  // namespace redist::slicering
