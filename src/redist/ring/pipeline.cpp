#include "redist/ring/pipeline.hpp"

#include <algorithm>
#include <cmath>

namespace redist::ring::detail {

void asap_departures(std::int64_t load, std::int64_t flow, double cost, double release,
                     const std::vector<Pace>& arrivals, std::vector<Pace>& departures) {
  departures.clear();
  const std::int64_t own = std::min(load, flow);
  append_pace(departures, {release, own, cost});
  std::int64_t to_forward = flow - own;
  double ready = own > 0 ? departures.back().next_free() : release;  // send port free from here
  for (const Pace& a : arrivals) {
    if (to_forward == 0) break;
    const std::int64_t m = std::min(a.count, to_forward);
    to_forward -= m;
    if (a.period <= cost || ready <= a.start) {
      if (a.period <= cost) {
        // Arrivals at least as fast as the link: back to back from the first possible time.
        const double first = std::max(ready, a.start);
        append_pace(departures, {first, m, cost});
      } else {
        // Slower arrivals and an idle port: forward each item as it arrives.
        append_pace(departures, {a.start, m, a.period});
      }
    } else {
      // Backlog: back to back from `ready` while ready + t*cost >= a.start + t*period, then
      // forward at the arrivals' pace. t* = floor((ready - start) / (period - cost)).
      const long double slack = static_cast<long double>(ready) - a.start;
      const long double gain = static_cast<long double>(a.period) - cost;
      std::int64_t backlog = m;
      const long double t_star = std::floor(slack / gain);
      if (t_star + 1 < static_cast<long double>(m)) backlog = static_cast<std::int64_t>(t_star) + 1;
      append_pace(departures, {ready, backlog, cost});
      if (backlog < m) {
        append_pace(departures,
                    {a.start + static_cast<double>(backlog) * a.period, m - backlog, a.period});
      }
    }
    ready = departures.back().next_free();
    // A departure never precedes the matching arrival: departures track max(ready, arrival).
  }
}

}  // namespace redist::ring::detail
