// LAU §4, Figure 6: the Linear schedule (Wu and Shu's DDE [6]): the ring treated as a linear array,
// flows[i] = sum_{j<=i} (l_j - t_j), so flows[n-1] = 0 (the wrap-around link is unused) and h = 0.
// Guarantee: valid and "reasonable" (LAU Lemma 2: some flow is 0); no time guarantee.
// Complexity: O(n).
#pragma once

#include "redist/lau/model.hpp"

namespace redist::lau {

// A plan with the given shift of the Linear flows: flows = linear - h, times and traffic filled.
Plan plan_with_shift(const Instance& instance, const std::vector<std::int64_t>& linear,
                     std::int64_t h, std::string algorithm);

Plan plan_linear(const Instance& instance);

}  // namespace redist::lau
