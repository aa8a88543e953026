// The readable summary of an exchange plan (`redist exchange plan --format text`): the instance
// (nodes, messages, bytes, bandwidths, latency, backbone), the algorithm, makespan, the plan's
// lower bound and its terms, whether it is proven optimal and how, the validator's verdict passed
// in, and each message's pieces (who sends what to whom, and when). It recomputes nothing the plan
// states. Complexity: O(messages + pieces log pieces).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/exchange/family.hpp"
#include "redist/exchange/model.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

std::string exchange_summary(const exchange::Instance& instance, const exchange::Plan& plan,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source);

// The readable lower bounds of `redist exchange bound --format text`: the bound and its terms
// (the ports; the backbone, when the instance has one), as `bounds` gives them. O(1).
std::string exchange_bound_summary(const exchange::Bounds& bounds, std::string_view heading);

template <>
struct TextFace<exchange::Family> {
  static std::string summary(const exchange::Instance& instance, const exchange::Plan& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return exchange_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
