// Gantt chart of a star schedule (`--gantt` on `redist star plan|check`), drawn with
// redist/svg/gantt.hpp: one row for the master and one per worker, lanes "send", "recv" and
// "compute". Each moved task is a send and a receive bar on the way to the master (first hop,
// blue) and again on the way to its new worker (second hop, vermillion), labelled "P0 → P1" as
// the text summary writes it. Worker computations are drawn per the model (own kept tasks from 0,
// then received tasks in arrival order, in another colour); a forwarded received task is drawn as
// computed too (planners never forward). The legend names every bar kind; the title gives the
// algorithm, the makespan, the lower bound and optimality ("optimal: not proven" unless the
// schedule claims it); a dashed line marks the makespan, a dotted one the lower bound below it.
// Complexity: O(n log n + m) for n transfers.
//
// Size: every moved task is drawn (4 bars and a computation), so a chart shows at most
// kStarGanttMaxWorkers workers and kStarGanttMaxTransfers transfers (beyond, nobody can read it and
// the file grows to hundreds of megabytes); require_star_gantt_size refuses larger ones.
#pragma once

#include <cstddef>
#include <string>

#include "redist/star/family.hpp"
#include "redist/star/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr std::size_t kStarGanttMaxWorkers = 1000;
inline constexpr std::size_t kStarGanttMaxTransfers = 20000;

// Throws OptionError at "gantt" when a chart of `workers` rows and `transfers` moved tasks is
// over the limits (`transfers` = 0: the workers alone, before planning).
void require_star_gantt_size(std::size_t workers, std::size_t transfers);

// The chart of `schedule` on `instance`; a lower_bound of 0 (none stated) is not shown.
// A schedule that failed star::check is drawn with `conflict` (gantt.hpp).
std::string star_gantt_svg(const star::Instance& instance, const star::Schedule& schedule,
                           const std::string& title, const Conflict* conflict = nullptr);

template <>
struct ChartFace<star::Family> {
  static void limits(const star::Instance& instance) {
    require_star_gantt_size(instance.workers(), 0);
  }
  static void limits(const star::Instance& instance, const star::Schedule& result) {
    limits(instance);
    require_star_gantt_size(instance.workers(), result.transfers.size());
  }
  static std::string chart(const star::Instance& instance, const star::Schedule& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return star_gantt_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
