// The readable summary of a star schedule (STAR; `redist star plan --format text`): the platform,
// algorithm, makespan, the plan's own lower bound, its optimality and how it was proven, the
// validator's verdict (computed by the caller), each worker's final task count and finish time,
// and who sends how many tasks to whom through the master (one row per sender and receiver, with
// its time window). Complexity: O(m + transfers log transfers).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/star/family.hpp"
#include "redist/star/model.hpp"
#include "redist/star/order.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

std::string star_summary(const star::Instance& instance, const star::Schedule& schedule,
                         const CheckResult& verdict, std::string_view heading,
                         std::string_view source);

// The readable order of `redist star order --format text` (STAR Theorem 1): the platform's c and
// delta, the makespan and lower bound the schedule states, and who sends how many tasks to whom,
// with the time windows of the schedule. O(transfers log transfers).
std::string star_order_summary(const star::OrderInstance& instance, const star::Schedule& schedule,
                               std::string_view heading);

template <>
struct TextFace<star::Family> {
  static std::string summary(const star::Instance& instance, const star::Schedule& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return star_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
