#include "redist/ring/unidirectional.hpp"

#include <algorithm>
#include <cmath>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/pipeline.hpp"

namespace redist::ring {

std::vector<std::int64_t> unidirectional_flows(const Instance& in) {
  std::vector<std::int64_t> flows = prefix_imbalances(in);
  const std::int64_t lowest = *std::min_element(flows.begin(), flows.end());
  for (std::int64_t& f : flows) f -= lowest;
  return flows;
}

Schedule plan_unidirectional(const Instance& in) {
  if (in.bidirectional) {
    throw OptionError("algorithm 'unidirectional' applies to unidirectional rings only",
                      "algorithm");
  }
  const std::size_t n = in.size();
  Schedule s;
  s.algorithm = "unidirectional";
  s.flows = unidirectional_flows(in);

  // C_{start,end}, the slice of maximal imbalance, starts right after a processor of zero flow
  // (minimal prefix); `start` receives nothing (RRV04 Lemma 2), so the chain can be scheduled
  // processor after processor from it.
  const std::size_t before_start =
      static_cast<std::size_t>(std::find(s.flows.begin(), s.flows.end(), 0) - s.flows.begin());
  std::vector<detail::Pace> arrivals, departures;
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (before_start + 1 + step) % n;
    const double cost = in.cost_next[i];
    detail::asap_departures(in.loads[i], s.flows[i], cost, 0.0, arrivals, departures);
    arrivals.clear();
    for (const detail::Pace& d : departures) {
      Run run{static_cast<std::int64_t>(i), Direction::next, d.start, d.count,
              d.period == cost ? 0.0 : d.period};
      s.transfers.push_back(run);
      arrivals.push_back({d.start + cost, d.count, d.period});
    }
  }
  // Runs were emitted processor by processor from `start` on: rotate so processor 0 comes first.
  if (!s.transfers.empty()) {
    const std::int64_t first = s.transfers.front().from;
    std::rotate(s.transfers.begin(),
                std::find_if(s.transfers.begin(), s.transfers.end(),
                             [first](const Run& r) { return r.from < first; }),
                s.transfers.end());
  }
  s.makespan = schedule_makespan(in, s.transfers);
  s.lower_bound = theorem2_bound(in);
  if (at_most(s.makespan, *s.lower_bound)) s.prove_optimal(Proof::lower_bound);
  return s;
}

}  // namespace redist::ring
