#include "redist/ring/unidirectional.hpp"

#include <algorithm>
#include <cmath>

#include "redist/common/error.hpp"
#include "redist/ring/bounds.hpp"

namespace redist::ring {

namespace {

// A run of departures (or, shifted by the link cost, of arrivals): `count` items at
// start + k * period.
struct Pace {
  double start;
  std::int64_t count;
  double period;

  double next_free() const { return start + static_cast<double>(count) * period; }
};

// Appends a run, merging it into the previous one when it continues it at the same pace.
void append(std::vector<Pace>& runs, Pace run) {
  if (run.count <= 0) return;
  if (!runs.empty()) {
    Pace& last = runs.back();
    if (last.period == run.period && last.next_free() == run.start) {
      last.count += run.count;
      return;
    }
  }
  runs.push_back(run);
}

// Departures of one processor that sends `flow` items over a link of cost `cost`, holding `load`
// items at time 0 and receiving `arrivals` (sorted, disjoint runs of arrival times), as soon as
// possible: departure j = max(departure j-1 + cost, time the item is held).
void as_soon_as_possible(std::int64_t load, std::int64_t flow, double cost,
                         const std::vector<Pace>& arrivals, std::vector<Pace>& departures) {
  departures.clear();
  const std::int64_t own = std::min(load, flow);
  append(departures, {0.0, own, cost});
  std::int64_t to_forward = flow - own;
  double ready = own > 0 ? departures.back().next_free() : 0.0;  // send port free from here
  for (const Pace& a : arrivals) {
    if (to_forward == 0) break;
    const std::int64_t m = std::min(a.count, to_forward);
    to_forward -= m;
    if (a.period <= cost || ready <= a.start) {
      if (a.period <= cost) {
        // Arrivals at least as fast as the link: back to back from the first possible time.
        const double first = std::max(ready, a.start);
        append(departures, {first, m, cost});
      } else {
        // Slower arrivals and an idle port: forward each item as it arrives.
        append(departures, {a.start, m, a.period});
      }
    } else {
      // Backlog: back to back from `ready` while ready + t*cost >= a.start + t*period, then
      // forward at the arrivals' pace. t* = floor((ready - start) / (period - cost)).
      const long double slack = static_cast<long double>(ready) - a.start;
      const long double gain = static_cast<long double>(a.period) - cost;
      std::int64_t backlog = m;
      const long double t_star = std::floor(slack / gain);
      if (t_star + 1 < static_cast<long double>(m)) backlog = static_cast<std::int64_t>(t_star) + 1;
      append(departures, {ready, backlog, cost});
      if (backlog < m) {
        append(departures,
               {a.start + static_cast<double>(backlog) * a.period, m - backlog, a.period});
      }
    }
    ready = departures.back().next_free();
    // A departure never precedes the matching arrival: departures track max(ready, arrival).
  }
}

}  // namespace

std::vector<std::int64_t> unidirectional_flows(const Instance& in) {
  std::vector<std::int64_t> flows = prefix_imbalances(in);
  const std::int64_t lowest = *std::min_element(flows.begin(), flows.end());
  for (std::int64_t& f : flows) f -= lowest;
  return flows;
}

Schedule plan_unidirectional(const Instance& in) {
  if (in.bidirectional) {
    throw InputError("algorithm 'unidirectional' applies to unidirectional rings only",
                     "--algorithm");
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
  std::vector<Pace> arrivals, departures;
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = (before_start + 1 + step) % n;
    const double cost = in.cost_next[i];
    as_soon_as_possible(in.loads[i], s.flows[i], cost, arrivals, departures);
    arrivals.clear();
    for (const Pace& d : departures) {
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
  s.optimal = s.makespan <= *s.lower_bound * (1 + 1e-9);
  return s;
}

}  // namespace redist::ring
