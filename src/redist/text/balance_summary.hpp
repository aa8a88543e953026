// The readable summary of `redist balance advise --format text` (docs/balance.md): the ring, the
// counts and measured speeds, the answer (rebalance or not) and its reason (the predicted saving
// over the remaining iterations against the redistribution's planned makespan), the iteration
// time now and after balancing, the balanced targets, and the redistribution's own summary (that
// of ring_summary, with `verdict`, the validator's verdict on that redistribution, which the caller
// computes). Complexity: that of ring_summary.
#pragma once

#include <string>
#include <string_view>

#include "redist/balance/advise.hpp"
#include "redist/balance/simulate.hpp"
#include "redist/common/check.hpp"

namespace redist::text {

std::string advise_summary(const balance::AdviseInput& input, const balance::Advice& advice,
                           const CheckResult& verdict, std::string_view heading,
                           std::string_view source);

// The readable run of `redist balance simulate --format text`: the policy, the total time and its
// parts (computation, redistributions), the lower bound, and each rebalance (after which
// iteration, the redistribution's makespan, the new counts), as the simulation gives them.
// O(rebalances * processors), the rebalances cut at kMaxRows.
std::string simulation_summary(const balance::SimulationResult& result, std::string_view heading);

}  // namespace redist::text
