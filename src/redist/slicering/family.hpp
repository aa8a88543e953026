// redist/slicering/family.hpp: the slicering family as a type (redist/common/family.hpp;
// docs/library.md, "Adding a family"). Static load balancing on a ring of processors (SLICE).
#pragma once

#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/slicering/bounds.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"

namespace redist::slicering {

struct Family {
  static constexpr std::string_view name = "slicering";
  static constexpr std::string_view title = "Static load balancing on a cluster ring (SLICE)";
  static constexpr std::string_view example = "slicering/small.json";  // under data/
  static constexpr std::string_view root = "$.cluster";
  using Instance = slicering::Cluster;
  using Result = slicering::Solution;
  using Options = slicering::PlanOptions;
  static const std::vector<redist::AlgorithmName>& algorithms() {
    return slicering_algorithm_names();
  }
  static Result plan(const Instance& instance, const Options& options) {
    return slicering::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return slicering::check(instance, result);
  }
  // T_step over every ring of the size the options fix, or of every size (ring_size_bound).
  static double lower_bound(const Instance& instance, const Options& options) {
    return slicering::ring_size_bound(instance, options.ring_size);
  }
};

}  // namespace redist::slicering
