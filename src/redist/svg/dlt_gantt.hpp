// Gantt chart of a divisible-load schedule (`--gantt` on `redist dlt plan|check`, STAR §5), drawn
// with redist/svg/gantt.hpp: one row per worker, lanes "send", "recv" and "compute". Every
// transfer runs at its constant rate from time 0 (the switch model), so it is a bar [0,
// amount / rate) on its sender's send lane and on its receiver's recv lane, as high as its rate's
// share of that worker's bandwidth b_i: a full lane is the whole link, and the transfers sharing a
// link are stacked, so the chart shows how each link is used. Each bar is labelled with the
// other end, the amount and the rate when it fits ("→P1: 3.6 at rate 1"; every detail is in its
// tooltip). A worker computes from 0 to its finish time, max(final load / s, end of its last
// reception), the validator's formula. The title gives the schedule's claims as the planner set
// them: makespan, lower bound and optimality; a dashed line marks the makespan.
// Complexity: O(m + n) for n transfers.
//
// Size: at most kDltGanttMaxWorkers workers and kDltGanttMaxTransfers transfers (beyond, nobody
// can read it); require_dlt_gantt_size refuses larger ones.
#pragma once

#include <cstddef>
#include <string>

#include "redist/dlt/family.hpp"
#include "redist/dlt/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr std::size_t kDltGanttMaxWorkers = 1000;
inline constexpr std::size_t kDltGanttMaxTransfers = 20000;

// Throws OptionError at "gantt" when a chart of `workers` rows and `transfers` transfers is over
// the limits (`transfers` = 0: the workers alone, before planning).
void require_dlt_gantt_size(std::size_t workers, std::size_t transfers);

// The instance must have passed dlt::validate_instance. A schedule that failed dlt::check is
// drawn with `conflict` (its transfers that name unknown workers are left out).
std::string dlt_gantt_svg(const dlt::Instance& instance, const dlt::Schedule& schedule,
                          const std::string& title, const Conflict* conflict = nullptr);

template <>
struct ChartFace<dlt::Family> {
  static void limits(const dlt::Instance& instance) {
    require_dlt_gantt_size(instance.workers(), 0);
  }
  static void limits(const dlt::Instance& instance, const dlt::Schedule& result) {
    limits(instance);
    require_dlt_gantt_size(instance.workers(), result.transfers.size());
  }
  static std::string chart(const dlt::Instance& instance, const dlt::Schedule& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return dlt_gantt_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
