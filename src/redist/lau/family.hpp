// redist/lau/family.hpp: the lau family as a type (redist/common/family.hpp; docs/library.md,
// "Adding a family"). Lau's load distribution schedules.
#pragma once

#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/lau/planner.hpp"
#include "redist/lau/validate.hpp"

namespace redist::lau {

struct Family {
  static constexpr std::string_view name = "lau";
  static constexpr std::string_view title = "Lau's load distribution on rings (LAU)";
  static constexpr std::string_view example = "examples/lau-ring.json";  // under data/
  static constexpr std::string_view root = "$.lau";
  using Instance = lau::Instance;
  using Result = lau::Plan;
  using Options = lau::PlanOptions;
  static const std::vector<redist::AlgorithmName>& algorithms() { return algorithm_names(); }
  static Result plan(const Instance& instance, const Options& options) {
    return lau::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return lau::check(instance, result);
  }
  // The optimum in the options' send mode, by the optimal planner: O(n log n).
  static double lower_bound(const Instance& instance, const Options& options) {
    return lau::plan(instance, {"optimal", options.mode}).lower_bound.value_or(0.0);
  }
};

}  // namespace redist::lau
