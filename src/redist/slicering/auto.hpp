// `redist slicering plan --algorithm auto` (the default; docs/slicering.md): the best SliceRing
// algorithm that is fast on the cluster at hand, always with a proven lower bound.
//
// Rule:
//  - p <= kAutoExactMaxProcessors: `exact` (Held-Karp + branch and bound, exact.hpp) within a
//    budget of kAutoExactMaxNodes branch-and-bound nodes: the proven optimum over every ring size
//    (or the forced q), lower_bound = T_step, optimal. Measured (random clusters, W/H = 10^-3, 1,
//    10^3, whole command): p = 16 in 0.16-0.33 s; p = 17 up to 1.7 s, p = 18 up to 2.6 s, p = 20
//    up to 27 s: too slow for a default. When the budget or the time limit stops the search,
//    exact's answer at a limit: the better of its best ring and the heuristics below, with the
//    larger certified bound and a note naming the limit;
//  - otherwise (more processors): the better of greedy (SLICE §6.2, when
//    p <= kGreedyMaxProcessors) and tsp (SLICE §5.1, §6.1, when every processor may be used),
//    each re-checked by the independent validator (validate.hpp), ties to greedy. Its
//    lower_bound is ring_size_bound (bounds.hpp: exact for 1 and 2 processors, the cheapest-links
//    relaxation for more, and for the full ring also tsp's Held-Karp 1-tree bound through Eq. 3),
//    certified under rounding; optimal only when the certified upper bound on T_step meets it
//    (claim_optimal_if_certified, certify.hpp).
// `algorithm` names the planner whose ring is returned (exact, greedy or tsp), as the ring
// family's `auto` does; `notes` say why it was chosen.
// Guarantee: a valid solution with a proven lower bound; optimal when p <= 16 (unless the node
// budget or the time limit stopped exact's search). Complexity: O(2^p p^2) for p <= 16; else
// greedy's O(p^3/6) and tsp's (tsp.hpp), plus O(p^2) for the bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "redist/common/deadline.hpp"
#include "redist/slicering/model.hpp"

namespace redist::slicering {

inline constexpr std::size_t kAutoExactMaxProcessors = 16;
// About a second of branch and bound (exact's own cap is 200 M nodes, about a minute).
inline constexpr std::uint64_t kAutoExactMaxNodes = 3'000'000;

// `time_limit` bounds exact's branch and bound as its node budget does (a note then says which
// stopped it).
Solution plan_auto(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt,
                   const Deadline& time_limit = Deadline());
// The second branch alone (greedy and tsp, the bound); `reason` (why exact was not run, or did
// not finish) goes into the notes.
Solution plan_auto_heuristics(const Cluster& cluster, std::optional<std::size_t> q,
                              const std::string& reason);

}  // namespace redist::slicering
