// redist/dlt/family.hpp: the dlt family as a type (redist/common/family.hpp; docs/library.md,
// "Adding a family"). Divisible load on star platforms (STAR).
#pragma once

#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/dlt/validate.hpp"

namespace redist::dlt {

struct Family {
  static constexpr std::string_view name = "dlt";
  static constexpr std::string_view title = "Divisible load on a switch (STAR section 5)";
  static constexpr std::string_view example = "examples/dlt-switch.json";  // under data/
  static constexpr std::string_view root = "$.dlt";
  using Instance = dlt::Instance;
  using Result = dlt::Schedule;
  using Options = dlt::PlanOptions;
  // No choice of algorithm: LP 7's optimum, by the solver the options name.
  static const std::vector<redist::AlgorithmName>& algorithms() {
    static const std::vector<redist::AlgorithmName> table = {
        {"lp7", "STAR §4: the optimal divisible-load schedule of LP 7 (closed form or CLP)"}};
    return table;
  }
  static Result plan(const Instance& instance, const Options& options) {
    return dlt::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return dlt::check(instance, result);
  }
  // LP 7's optimum, the least makespan of the model, in closed form: O(n log n).
  static double lower_bound(const Instance& instance, const Options& /*options*/) {
    return dlt::solve(instance, Solver::fast).lower_bound.value_or(0.0);
  }
};

}  // namespace redist::dlt
