// redist/exchange/family.hpp: the exchange family as a type (redist/common/family.hpp;
// docs/library.md, "Adding a family"). Any message matrix under the one-port model.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redist/common/family.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"

namespace redist::exchange {

struct Family {
  static constexpr std::string_view name = "exchange";
  static constexpr std::string_view title =
      "Any redistribution as messages between nodes, under the one-port model";
  static constexpr std::string_view example = "exchange/skewed-8.json";  // under data/
  static constexpr std::string_view root = "$.exchange";
  using Instance = exchange::Instance;
  using Result = exchange::Plan;
  using Options = exchange::PlanOptions;
  // kAlgorithms (a constexpr table of views) in the families' shape.
  static const std::vector<redist::AlgorithmName>& algorithms() {
    static const std::vector<redist::AlgorithmName> table = [] {
      std::vector<redist::AlgorithmName> names;
      for (const AlgorithmName& a : kAlgorithms) {
        names.push_back({std::string(a.name), std::string(a.description)});
      }
      return names;
    }();
    return table;
  }
  static Result plan(const Instance& instance, const Options& options) {
    return exchange::plan(instance, options);
  }
  static CheckResult check(const Instance& instance, const Result& result) {
    return exchange::check(instance, result);
  }
  // The ports and backbone bounds (exchange::bounds): O(p + messages).
  static double lower_bound(const Instance& instance, const Options& /*options*/) {
    return exchange::bounds(instance).lower_bound;
  }
};

}  // namespace redist::exchange
