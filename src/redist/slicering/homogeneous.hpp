// SLICE §3, Proposition 1: SliceRing on a homogeneous network (every c_ij = c).
//
// With equal capacities every ring of q >= 3 processors (and q = 2: 2c each) pays 2Hc per member,
// so the best ring of size q holds the q fastest processors, T(q) = W / sum_{q fastest} 1/w + 2Hc
// for q >= 2 and W w_min for q = 1; the optimum is min(W w_min, W w_cumul + 2Hc) (Proposition 1).
// Guarantee: optimal (for the forced q, if any), claimed when the certified upper bound on the
// plan's T_step meets the candidates' optima rounded down (certify.hpp). Refuses heterogeneous
// networks (InputError at
// $.cluster.c): there the proposition does not apply. Complexity: O(p^2) to check the network,
// O(p log p) to plan.
#pragma once

#include <optional>

#include "redist/slicering/model.hpp"

namespace redist::slicering {

// True when every off-diagonal capacity is the same number.
bool is_homogeneous_network(const Cluster& cluster);

Solution plan_homogeneous(const Cluster& cluster, std::optional<std::size_t> q = std::nullopt);

}  // namespace redist::slicering
