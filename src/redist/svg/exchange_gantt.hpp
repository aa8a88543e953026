// The Gantt chart of an exchange plan (`redist exchange plan|check --gantt`): one row per node,
// with its send port and its receive port as lanes; each piece is a bar on its sender's send lane
// and on its receiver's receive lane, labelled with the other end ("to P3", "from P1", or "->P3",
// "<-P1" on a short bar, or no label when neither fits), its latency hatched at its start. Colour
// tells messages apart: one per message with a legend entry each when there are at most 10, else
// one per sender. Dashed lines at the lower bound and the makespan; a step plan's steps (the
// starts its planner states, Plan::steps) as numbered boundaries; with a backbone, a strip under
// the chart counts the crossing pieces running against its transfers.
// Complexity: O(P log P + pieces named by a conflict x bars) for P pieces.
#pragma once

#include <string>

#include "redist/exchange/family.hpp"
#include "redist/exchange/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr ChartLimits kExchangeChartLimits{"nodes", 256, "pieces", 20'000};

// The chart of `plan` (its claims as the plan states them; a plan read from a document has no
// bound terms nor step starts, and then only the makespan is marked). A plan that failed
// exchange::check is drawn with `conflict` (gantt.hpp: its `transfers` are pieces, those the
// verdict's entries name, outlined in red, and the reason under the title) and without its claimed
// lower bound and optimality; pieces that cannot be placed (an unknown node, a time span that is
// not finite or goes back) are left out, their count noted under the chart.
std::string exchange_gantt_svg(const exchange::Instance& instance, const exchange::Plan& plan,
                               const std::string& title, const Conflict* conflict = nullptr);

template <>
struct ChartFace<exchange::Family> {
  static void limits(const exchange::Instance& instance) {
    require_chart_size(kExchangeChartLimits, instance.nodes, 0, "gantt");
  }
  static void limits(const exchange::Instance& instance, const exchange::Plan& result) {
    require_chart_size(kExchangeChartLimits, instance.nodes, result.pieces.size(), "gantt");
  }
  static std::string chart(const exchange::Instance& instance, const exchange::Plan& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return exchange_gantt_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
