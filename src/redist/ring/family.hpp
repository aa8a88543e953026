// redist/ring/family.hpp: the ring family as a type (redist/common/family.hpp; docs/library.md,
// "Adding a family"). Redistribution on processor rings (RRV04).
#pragma once

#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"

namespace redist::ring {

struct Family {
  static constexpr std::string_view name = "ring";
  static constexpr std::string_view title = "Redistribution on processor rings (RRV04)";
  static constexpr std::string_view example = "examples/demo-ring.json";  // under data/
  static constexpr std::string_view root = "$.ring";
  using Instance = ring::Instance;
  using Result = ring::Schedule;
  using Options = ring::PlanOptions;
  static const std::vector<redist::AlgorithmName>& algorithms() { return ring_algorithm_names(); }
  static Result plan(const Instance& instance, const Options& options) {
    return ring::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return ring::check(instance, result);
  }
  // The largest of the papers' bounds and System 6's optimum (ring::bounds): O(n log n).
  static double lower_bound(const Instance& instance, const Options& /*options*/) {
    return ring::bounds(instance).lower_bound;
  }
};

}  // namespace redist::ring
