// As-soon-as-possible forwarding along a chain of processors, on runs rather than items
// (RRV04 §4, Algorithm 2; shared by `unidirectional` and `heuristic`).
//
// A processor sends `flow` items over one link of cost c: it holds `load` items at time 0 and
// receives more as `arrivals` (sorted, disjoint runs of arrival times); it never starts before
// `release`. Departure j = max(departure j-1 + c, release, arrival of the item it needs). Runs:
// an upstream run arriving at least as fast as the link is forwarded back to back; a slower one is
// forwarded at its own pace (a run with a period) once the backlog is cleared.
// Complexity: O(arrival runs); at most two departure runs per arrival run, plus one.
#pragma once

#include <cstdint>
#include <vector>

namespace redist::ring::detail {

// `count` items at start + k * period, k = 0 .. count-1.
struct Pace {
  double start;
  std::int64_t count;
  double period;

  double next_free() const { return start + static_cast<double>(count) * period; }
  double last() const { return start + static_cast<double>(count - 1) * period; }
};

// Appends a run, merging it into the previous one when it continues it at the same pace. Inline:
// it is the innermost step of every chain schedule.
inline void append_pace(std::vector<Pace>& runs, Pace run) {
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

// Fills `departures` (cleared first). Requires flow <= load + items in `arrivals`.
void asap_departures(std::int64_t load, std::int64_t flow, double cost, double release,
                     const std::vector<Pace>& arrivals, std::vector<Pace>& departures);

}  // namespace redist::ring::detail
