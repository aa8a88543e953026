// The readable summary of a ring redistribution (RRV04; `redist ring plan --format text`,
// `redist demo`): the ring, the algorithm, makespan, the plan's lower bound and its terms, whether
// the schedule is proven optimal and how, the independent validator's verdict (computed by the
// caller), the flows, and who sends what to whom (one row per run, with its time window).
// Nothing is recomputed: O(n + runs).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/family.hpp"
#include "redist/ring/model.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

// `heading` opens the first line ("redist ring plan"); `source` names the instance ("" for none).
std::string ring_summary(const ring::Instance& instance, const ring::Schedule& schedule,
                         const CheckResult& verdict, std::string_view heading,
                         std::string_view source);

// The readable lower bounds of `redist ring bound --format text`: the bound and each of its terms
// as the report gives them (a skipped term says so). O(terms).
std::string ring_bound_summary(const ring::BoundReport& report, std::string_view heading);

template <>
struct TextFace<ring::Family> {
  static std::string summary(const ring::Instance& instance, const ring::Schedule& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return ring_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
