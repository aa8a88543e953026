// What the step planners (`min-steps`, `caterpillar`) share besides step_plan (steps.hpp): keeping
// a backbone's limit within each step, and the steps' lengths (docs/exchange.md, "Step
// schedules").
#pragma once

#include <string>
#include <vector>

#include "redist/exchange/model.hpp"
#include "redist/exchange/steps.hpp"

namespace redist::exchange {

// With a backbone of k transfers, each step with c > k crossing pieces becomes ceil(c / k)
// sub-steps that run one after the other: the crossing pieces, longest first, k to a sub-step, and
// the step's other pieces in the first sub-step (with the longest crossing ones). Each sub-step is
// still a matching, so the result is a step schedule that respects the backbone. Without a
// backbone, `steps` unchanged. Complexity: O(pieces log pieces).
std::vector<Step> split_for_backbone(const Instance& instance, std::vector<Step> steps);

// Each step's length (latency + its longest piece), in order.
std::vector<double> step_lengths(const Instance& instance, const std::vector<Step>& steps);

// Adds the note "step lengths (latency + longest piece): 4, 4, 2" for at most 12 non-empty steps.
void note_step_lengths(Plan& plan, const Instance& instance, const std::vector<Step>& steps);

}  // namespace redist::exchange
