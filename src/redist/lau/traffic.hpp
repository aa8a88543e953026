// LAU §4, Lemma 3 and Figure 7: the Traffic schedule (Wu and Shu's traffic-minimal adjustment).
//
// Sort the Linear flows in non-increasing order s_(1) >= ... >= s_(n). With n_p positive and n_n
// negative flows: for even n, h = s_(n/2) when n_p > n/2 and h = s_(n/2+1) when n_n > n/2; for odd
// n, h = the median s_((n+1)/2) in both cases (the published s_(floor(n/2)) for n_p > floor(n/2) is
// not traffic-minimal: Lemma 3's own argument needs the median); h = 0 otherwise. The schedule is
// flows = linear - h.
// Guarantee: minimal traffic sum |flows| among all valid schedules (tested against every h).
// Complexity: O(n) (nth_element).
#pragma once

#include "redist/lau/model.hpp"

namespace redist::lau {

// The Traffic algorithm's shift of the given Linear flows.
std::int64_t traffic_shift(const std::vector<std::int64_t>& linear);

Plan plan_traffic(const Instance& instance);

}  // namespace redist::lau
