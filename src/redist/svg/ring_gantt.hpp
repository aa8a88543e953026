// Gantt chart of a ring redistribution schedule (docs/formats.md), for `--gantt FILE.svg`.
//
// One row per processor ("P0", "P1", ... indexed from 0), each with a "send" lane and a "recv"
// lane (a processor has one send port and one receive port, whatever the direction). A run {from,
// dir, start, count, period} is drawn on the sender's send lane (label "→P<receiver> ×count", or
// just "→P<receiver>" when only that fits) and on the receiver's receive lane ("←P<sender>
// ×count"), coloured by direction (next #0072B2, prev #D55E00, a colour-blind-safe pair).
// Back-to-back runs are one bar with separators between items where they are at least 2 px apart;
// spaced runs (period > cost) show their items one by one when there are few enough, else a hatched
// span whose label notes the period. The title line gives the algorithm, the makespan and the lower
// bound; a dashed line marks the makespan and a dotted line the lower bound when it differs.
//
// Runs that cannot be drawn (count <= 0, an unknown processor or direction, a "prev" run on a
// unidirectional ring, non-finite times) are skipped; the count of runs skipped for being invalid
// (count 0 is not) is noted under the chart. The work is linear in the number of runs and never
// loops over the items of a large run.
//
// Size: a chart shows at most kGanttMaxProcessors rows and kGanttMaxRuns runs (beyond, nobody
// can read it and the file grows to gigabytes); require_gantt_size refuses larger ones, and
// ring_gantt_chart calls it itself.
#pragma once

#include <cstddef>
#include <string>

#include "redist/ring/family.hpp"
#include "redist/ring/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr std::size_t kGanttMaxProcessors = 1000;
inline constexpr std::size_t kGanttMaxRuns = 20'000;

// Throws OptionError (at `option`, e.g. "gantt") when a chart of `processors` rows and `runs`
// runs is over the limits; `runs` = 0 checks the processors alone (before planning). The message
// ends with `advice` (default: "omit --<option>").
void require_gantt_size(std::size_t processors, std::size_t runs, const std::string& option,
                        const std::string& advice = "");

// The chart that ring_gantt_svg renders; `title` may be empty (the summary line is then the
// title).
// A schedule that failed ring::check is drawn with `conflict` (gantt.hpp): the runs its reason
// names outlined in red, the reason under the title.
GanttChart ring_gantt_chart(const redist::ring::Instance& instance,
                            const redist::ring::Schedule& schedule, const std::string& title,
                            const Conflict* conflict = nullptr);

std::string ring_gantt_svg(const redist::ring::Instance& instance,
                           const redist::ring::Schedule& schedule, const std::string& title,
                           const Conflict* conflict = nullptr);

template <>
struct ChartFace<ring::Family> {
  static void limits(const ring::Instance& instance) {
    require_gantt_size(instance.size(), 0, "gantt");
  }
  static void limits(const ring::Instance& instance, const ring::Schedule& result) {
    require_gantt_size(instance.size(), result.transfers.size(), "gantt");
  }
  static std::string chart(const ring::Instance& instance, const ring::Schedule& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return ring_gantt_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
