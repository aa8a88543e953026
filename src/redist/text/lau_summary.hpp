// The readable summary of a LAU load distribution plan (`redist lau plan --format text`): the
// ring's loads and targets, the algorithm and send mode, both execution times in steps, the plan's
// lower bound (the optimum over every valid schedule) and its optimality, the validator's verdict
// (computed by the caller), the shift h and traffic, the red nodes (LAU §2: they forward load they
// first receive), and who sends how much to whom. Complexity: O(n).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/lau/evaluate.hpp"
#include "redist/lau/family.hpp"
#include "redist/lau/model.hpp"
#include "redist/text/family_text.hpp"

namespace redist::text {

std::string lau_summary(const lau::Instance& instance, const lau::Plan& plan,
                        const CheckResult& verdict, std::string_view heading,
                        std::string_view source);

// The readable evaluation of given flows (`redist lau eval --format text`): the ring, the flows,
// both execution times in steps (or the deadlock), how the multi-send time was found, the traffic
// and the shift h, as the evaluation gives them. O(n).
std::string lau_eval_summary(const lau::Instance& instance, const std::vector<std::int64_t>& flows,
                             const lau::Evaluation& evaluation, std::string_view heading);

template <>
struct TextFace<lau::Family> {
  static std::string summary(const lau::Instance& instance, const lau::Plan& result,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
    return lau_summary(instance, result, verdict, heading, source);
  }
};

}  // namespace redist::text
