// The readable summary of an exchange plan (`redist exchange plan --format text`): the instance
// (nodes, messages, bytes, bandwidths, latency, backbone), the algorithm, makespan, the plan's
// lower bound and its terms, whether it is proven optimal and how, the validator's verdict passed
// in, and each message's pieces (who sends what to whom, and when). It recomputes nothing the plan
// states. Complexity: O(messages + pieces log pieces).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/exchange/model.hpp"

namespace redist::text {

std::string exchange_summary(const exchange::Instance& instance, const exchange::Plan& plan,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source);

}  // namespace redist::text
