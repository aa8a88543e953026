// The optimum of a tiny star instance by plain enumeration (test support only): every vector of
// send counts, every order of the sends at the master (not only exact's order by c), every
// receiver of each task (any worker but its sender), the master forwarding each task when it
// has arrived and the previous forward is over; makespans by model.hpp's finish_times. No
// pruning: about prod_i (L_i + 1) x n!/prod n_i! x (m - 1)^n schedules for n moved tasks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::testkit {

namespace detail {

inline double star_makespan(const star::Instance& in, const std::vector<std::size_t>& senders,
                            const std::vector<std::size_t>& receivers) {
  star::Schedule s;
  double master_in = 0, master_out = 0;
  for (std::size_t k = 0; k < senders.size(); ++k) {
    star::Transfer t{static_cast<std::int64_t>(senders[k]), static_cast<std::int64_t>(receivers[k]),
                     master_in, 0};
    master_in += in.c[senders[k]];
    t.forward_start = std::max(master_in, master_out);
    master_out = t.forward_start + in.c[receivers[k]];
    s.transfers.push_back(t);
  }
  star::finish_times(in, s);
  return s.makespan;
}

inline double star_receivers(const star::Instance& in, const std::vector<std::size_t>& senders,
                             std::vector<std::size_t>& receivers) {
  if (receivers.size() == senders.size()) return star_makespan(in, senders, receivers);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < in.workers(); ++r) {
    if (r == senders[receivers.size()]) continue;
    receivers.push_back(r);
    best = std::min(best, star_receivers(in, senders, receivers));
    receivers.pop_back();
  }
  return best;
}

inline double star_counts(const star::Instance& in, std::vector<std::int64_t>& counts,
                          std::size_t i) {
  if (i == in.workers()) {
    std::vector<std::size_t> senders, receivers;
    for (std::size_t q = 0; q < counts.size(); ++q) senders.insert(senders.end(), counts[q], q);
    double best = std::numeric_limits<double>::infinity();
    do {
      best = std::min(best, star_receivers(in, senders, receivers));
    } while (std::next_permutation(senders.begin(), senders.end()));
    return best;
  }
  double best = std::numeric_limits<double>::infinity();
  for (counts[i] = 0; counts[i] <= in.loads[i]; ++counts[i]) {
    best = std::min(best, star_counts(in, counts, i + 1));
  }
  return best;
}

}  // namespace detail

inline double star_brute_force_optimum(const star::Instance& in) {
  std::vector<std::int64_t> counts(in.workers(), 0);
  return detail::star_counts(in, counts, 0);
}

}  // namespace redist::testkit
