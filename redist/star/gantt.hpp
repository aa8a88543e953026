// Gantt chart of a star schedule (`--gantt` on `redist star plan|check`), drawn with
// redist/svg/gantt.hpp: one row for the master and one per worker, lanes "send", "recv" and
// "compute". Worker computations are drawn per the model (own kept tasks from 0, then received
// tasks in arrival order); a forwarded received task is drawn as computed too (planners never
// forward). Complexity: O(n log n + m) for n transfers.
#pragma once

#include <string>

#include "redist/star/model.hpp"

namespace redist::star {

std::string star_gantt_svg(const Instance& instance, const Schedule& schedule,
                           const std::string& title);

}  // namespace redist::star
