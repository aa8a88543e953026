// The readable summary of a divisible-load schedule (STAR §5; `redist dlt plan --format text`):
// the platform, the solver, the makespan, the plan's lower bound (LP 7's optimum) and optimality,
// the validator's verdict (computed by the caller), each worker's final load, and the transfers
// with their amounts and rates. Complexity: O(m + transfers).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/dlt/family.hpp"
#include "redist/dlt/model.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

std::string dlt_summary(const dlt::Instance& instance, const dlt::Schedule& schedule,
                        const CheckResult& verdict, std::string_view heading,
                        std::string_view source);

template <>
struct TextFace<dlt::Family> {
  static std::string summary(const dlt::Instance& instance, const dlt::Schedule& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return dlt_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
