// redist/star/family.hpp: the star family as a type (redist/common/family.hpp; docs/library.md,
// "Adding a family"). Tasks on star platforms (STAR).
#pragma once

#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/star/lower_bound.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"

namespace redist::star {

struct Family {
  static constexpr std::string_view name = "star";
  static constexpr std::string_view title = "Tasks on star (master-worker) platforms (STAR)";
  static constexpr std::string_view example = "examples/star-platform.json";  // under data/
  static constexpr std::string_view root = "$.star";
  using Instance = star::Instance;
  using Result = star::Schedule;
  using Options = star::PlanOptions;
  static const std::vector<redist::AlgorithmName>& algorithms() { return algorithm_names(); }
  static Result plan(const Instance& instance, const Options& options) {
    return star::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return star::check(instance, result);
  }
  // The communication and computation bounds of every schedule (star_lower_bound): O(n log n).
  static double lower_bound(const Instance& instance, const Options& /*options*/) {
    return star::star_lower_bound(instance);
  }
};

}  // namespace redist::star
