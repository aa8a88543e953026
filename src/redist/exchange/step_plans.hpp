// What the step planners (`min-steps`, `caterpillar`) share: keeping a backbone's limit within each
// step, and turning steps into a plan with its bound and claims (docs/exchange.md, "Step
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

// The plan of `steps` (lay_out_steps), named `algorithm`, with the family's bounds; optimal only
// when the makespan meets bounds().lower_bound. Empty steps are dropped first.
Plan step_plan(const Instance& instance, std::vector<Step> steps, std::string algorithm);

// Each step's length (latency + its longest piece), in order.
std::vector<double> step_lengths(const Instance& instance, const std::vector<Step>& steps);

// Adds the note "step lengths (latency + longest piece): 4, 4, 2" for at most 12 non-empty steps.
void note_step_lengths(Plan& plan, const Instance& instance, const std::vector<Step>& steps);

}  // namespace redist::exchange
