// Step chart of a LAU load distribution schedule (`--gantt` on `redist lau plan|check`), as a
// standalone SVG document.
//
// Time steps run horizontally (one column per step, numbered from 1 to the makespan), the ring's
// nodes vertically (one row line per node, P0 at the top, P0 repeated in grey below the last node
// so that the link between P(n-1) and P0 has a place). Every message of the schedule, as the step
// simulator of redist/lau/simulate.hpp sends it in the chosen mode (single-send: each link's whole
// load in one message; multi-send: partial messages in many steps), is an arrow in its step's
// column between the sender's and the receiver's rows, labelled with the units it carries when
// the label fits (always in its tooltip): blue to the right (node i to i+1), orange to the left
// (node i to i-1). Row labels give each node's initial load and target; red nodes (LAU §2: they
// send more than they initially hold) are labelled in red. The title gives the algorithm, the mode,
// the makespan, the lower bound (the optimum in that mode) and whether the schedule reaches it; a
// dotted line marks the lower bound when it is below the makespan.
//
// Size: a chart shows at most kStepChartMaxNodes nodes, kStepChartMaxSteps steps and
// kStepChartMaxMessages messages (beyond, nobody can read it and the file grows without bound: a
// multi-send schedule may take 10^18 steps). require_step_chart_size refuses larger ones, and
// lau_steps_svg calls it itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/lau/family.hpp"
#include "redist/lau/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr std::size_t kStepChartMaxNodes = 200;
inline constexpr std::int64_t kStepChartMaxSteps = 200;
inline constexpr std::size_t kStepChartMaxMessages = 10'000;

// Throws OptionError at "gantt" when a chart of `nodes` rows, `steps` columns and `messages`
// arrows is over the limits; steps = messages = 0 checks the nodes alone (before planning).
void require_step_chart_size(std::size_t nodes, std::int64_t steps, std::size_t messages);

// The same for the chart of `flows` in `mode`: the steps come from the closed forms, the messages
// from the simulation (bounded by the limits). InputError at "flows" when the flows do not have
// one entry per node or do not balance every node.
void require_step_chart_size(const lau::Instance& instance, const std::vector<std::int64_t>& flows,
                             lau::Mode mode);

// The chart of plan.flows executed in plan.mode on `instance`; the title line is `title` (may be
// empty), then plan.algorithm, the mode, the makespan, plan.lower_bound (when > 0 and finite: a
// plan read from a file states none) and plan.optimal. Flows that deadlock are drawn up to the
// deadlock, with a note. The flows must have one entry per node and balance every node (InputError
// otherwise), unless the plan failed lau::check and is drawn with `conflict` (gantt.hpp): the
// reason in red under the subtitle and the nodes the verdict's entries name (its `transfers` are
// nodes here) outlined in red; unbalanced flows are then drawn as the simulation sends them, and
// flows that are not one per node as no message.
std::string lau_steps_svg(const lau::Instance& instance, const lau::Plan& plan,
                          const std::string& title, const Conflict* conflict = nullptr);

template <>
struct ChartFace<lau::Family> {
  static void limits(const lau::Instance& instance) {
    require_step_chart_size(instance.size(), 0, 0);
  }
  static void limits(const lau::Instance& instance, const lau::Plan& result) {
    limits(instance);
    // Flows that do not balance every node are drawn without steps (check refuses them).
    if (result.flows.size() == instance.size() && !lau::unbalanced_node(instance, result.flows)) {
      require_step_chart_size(instance, result.flows, result.mode);
    }
  }
  static std::string chart(const lau::Instance& instance, const lau::Plan& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return lau_steps_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
