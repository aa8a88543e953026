#include "redist/slicering/auto.hpp"

#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/slicering/bounds.hpp"
#include "redist/slicering/certify.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/greedy.hpp"
#include "redist/slicering/tsp.hpp"
#include "redist/slicering/validate.hpp"

namespace redist::slicering {

namespace {

bool passes_validator(const Cluster& cluster, const Solution& s) {
  const std::vector<long long> ring(s.ring.begin(), s.ring.end());
  return check(cluster, ring, s.alpha, Claims{std::nullopt, s.makespan, std::nullopt, std::nullopt})
      .valid;
}

// The full-ring bound of a tsp solution: Eq. 3 with its certified bound on every tour, rounded
// down.
double full_ring_bound(const Cluster& cluster, const Solution& tsp) {
  std::vector<std::size_t> everyone(cluster.size());
  std::iota(everyone.begin(), everyone.end(), 0);
  return eq3_lower(cluster, tsp.tour_lower_bound.value_or(0.0), inverse_upper(cluster, everyone));
}

}  // namespace

Solution plan_auto_heuristics(const Cluster& cluster, std::optional<std::size_t> q,
                              const std::string& reason) {
  const std::size_t p = cluster.size();
  std::optional<Solution> best;
  std::optional<double> full;
  auto consider = [&](Solution s) {
    if (!passes_validator(cluster, s)) return;
    if (!best || s.makespan < best->makespan) best = std::move(s);
  };
  if (p <= kGreedyMaxProcessors) consider(plan_greedy(cluster, q));
  if (!q || *q == p) {
    Solution t = plan_tsp(cluster, q);
    full = full_ring_bound(cluster, t);
    consider(std::move(t));
  }
  // Unreachable: the validator accepts every planner's output on clusters in range (tests).
  if (!best) throw std::logic_error("auto: no valid solution among greedy and tsp");
  Solution s = std::move(*best);
  s.lower_bound = std::min(ring_size_bound(cluster, q, full), s.makespan);
  // tsp's claim rested on its own bound, superseded here.
  claim_optimal_if_certified(cluster, s, Proof::lower_bound);
  // tsp's own lower_bound note is superseded; its note on tour_gap stays.
  std::erase_if(s.notes, [](const std::string& n) { return n.starts_with("lower_bound:"); });
  s.notes.insert(
      s.notes.begin(),
      fmt::format("auto: {}, the better of greedy and tsp (not exact: {})", s.algorithm, reason));
  s.notes.push_back(
      "lower_bound: exact for 1 and 2 processors, each member's two cheapest links for more "
      "(and the tour bound for all processors)");
  return s;
}

Solution plan_auto(const Cluster& cluster, std::optional<std::size_t> q,
                   const Deadline& time_limit) {
  const std::size_t p = cluster.size();
  if (p > kAutoExactMaxProcessors) {
    return plan_auto_heuristics(cluster, q, fmt::format("p = {} > {}", p, kAutoExactMaxProcessors));
  }
  ExactResult exact = plan_exact_within(cluster, q, kAutoExactMaxNodes, time_limit);
  if (exact.finished) {
    exact.solution.notes.push_back(fmt::format("auto: exact (p <= {}), the proven optimum{}",
                                               kAutoExactMaxProcessors,
                                               q ? " of the forced ring size" : ""));
  }
  return std::move(exact.solution);
}

}  // namespace redist::slicering
