// redist/common/family.hpp: what a planning family is, as a type (docs/library.md, "Adding a
// family").
//
// A family is a model with its planners and its independent validator: ring, lau, star, dlt,
// slicering, exchange. Each supplies one `family.hpp` in its folder with a struct `Family` that
// names its types and its core functions in one shape:
//
//   struct Family {
//     static constexpr std::string_view name = "ring";     // the command: `redist ring ...`
//     static constexpr std::string_view title = "Redistribution on processor rings (RRV04)";
//     static constexpr std::string_view root = "$.ring";   // where its instance sits in JSON
//     static constexpr std::string_view example = "examples/demo-ring.json";  // a bundled
//                                                          // instance, under data/
//     using Instance = ...;   // the model's input
//     using Result = ...;     // the planner's output, a PlanClaims (status, makespan, bound, gap)
//     using Options = ...;    // the planner's options: `algorithm` (when the family has a choice)
//                             // and `time_limit`
//     static const std::vector<redist::AlgorithmName>& algorithms();  // the default first
//     static Result plan(const Instance&, const Options&);
//     static CheckResult check(const Instance&, const Result&);  // the independent validator
//     static double lower_bound(const Instance&, const Options&);  // on the makespan of every
//                                                          // plan those options allow
//   };
//
// The faces of a family (its JSON reading and writing, its text summary, its picture) live in the
// layers above the families, as specializations of io::JsonFace, text::TextFace and svg::ChartFace
// for its Family; one list of the families (redist/api/families.hpp) drives the JSON entry points,
// the command line's plan and check commands and the faces test, which fails when a family of the
// list misses a face.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/common/check.hpp"
#include "redist/common/result.hpp"

namespace redist {

// One line of a family's table of algorithms: the name `--algorithm` takes and what it does (and
// when it is optimal), as the help lists it.
struct AlgorithmName {
  std::string name;
  std::string description;
};

// The list of the families, as a type (redist/api/families.hpp).
template <class... Families>
struct FamilyList {
  static constexpr std::size_t size = sizeof...(Families);
};

// Runs body.template operator()<F>() for each family F of the list, in its order:
//   for_each_family(Families{}, [&]<class F>() { ... });
template <class... F, class Body>
void for_each_family(FamilyList<F...> /*list*/, Body&& body) {
  (body.template operator()<F>(), ...);
}

// What every family supplies (see above).
template <class F>
concept Family = requires(const typename F::Instance& instance, const typename F::Result& result,
                          const typename F::Options& options) {
  { F::name } -> std::convertible_to<std::string_view>;
  { F::title } -> std::convertible_to<std::string_view>;
  { F::root } -> std::convertible_to<std::string_view>;
  { F::example } -> std::convertible_to<std::string_view>;
  { F::algorithms() } -> std::same_as<const std::vector<AlgorithmName>&>;
  { F::plan(instance, options) } -> std::same_as<typename F::Result>;
  { F::check(instance, result) } -> std::same_as<CheckResult>;
  { F::lower_bound(instance, options) } -> std::same_as<double>;
  { options.time_limit } -> std::convertible_to<std::optional<double>>;
  requires std::derived_from<typename F::Result, PlanClaims>;
};

}  // namespace redist
