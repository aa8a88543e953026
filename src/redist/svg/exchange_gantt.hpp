// The Gantt chart of an exchange plan (`redist exchange plan|check --gantt`): one row per node,
// with its send port and its receive port as lanes; each piece is a bar on its sender's send lane
// and on its receiver's receive lane, labelled with the other end; dashed lines at the lower
// bound and the makespan. Complexity: O(pieces + pieces named by a conflict x bars).
#pragma once

#include <string>

#include "redist/exchange/model.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr ChartLimits kExchangeChartLimits{"nodes", 256, "pieces", 20'000};

// The chart of `plan` (its claims as the plan states them; a plan read from a document has no
// bound terms, and then only the makespan is marked). A plan that failed exchange::check is drawn
// with `conflict` (gantt.hpp: its `transfers` are pieces, those the verdict's entries name,
// outlined in red, and the reason under the title); pieces that cannot be placed (an unknown node,
// a time span that is not finite or goes back) are left out, their count noted under the chart.
std::string exchange_gantt_svg(const exchange::Instance& instance, const exchange::Plan& plan,
                               const std::string& title, const Conflict* conflict = nullptr);

}  // namespace redist::svg
