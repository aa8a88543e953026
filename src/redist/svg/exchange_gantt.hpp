// The Gantt chart of an exchange plan (`redist exchange plan|check --gantt`): one row per node,
// with its send port and its receive port as lanes; each piece is a bar on its sender's send lane
// and on its receiver's receive lane, labelled with the other end; dashed lines at the lower
// bound and the makespan. Complexity: O(pieces).
#pragma once

#include <string>

#include "redist/exchange/model.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr ChartLimits kExchangeChartLimits{"nodes", 256, "pieces", 20'000};

// The chart of `plan` (its claims as the plan states them; a plan read from a document has no
// bound terms, and then only the makespan is marked).
std::string exchange_gantt_svg(const exchange::Instance& instance, const exchange::Plan& plan,
                               const std::string& title);

}  // namespace redist::svg
