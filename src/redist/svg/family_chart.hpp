// redist/svg/family_chart.hpp: a family's picture face (redist/common/family.hpp): the chart of a
// plan (`--gantt FILE`), within the documented size limits (docs/formats.md "Pictures").
//
// ChartFace<F> is specialized for each family F next to its chart (redist/svg/<family>_*.hpp):
//   static void limits(const Instance&);   // OptionError at "gantt" when even an empty plan's
//                                          // chart would exceed the limits (checked before
//                                          // planning)
//   static void limits(const Instance&, const Result&);  // the same, for this result (a
//                                          // `check` tells it before validating)
//   static std::string chart(const Instance&, const Result&, const std::string& title,
//                            const Conflict* conflict = nullptr);
//                                          // the SVG; OptionError at "gantt" beyond the limits.
//                                          // With a conflict (an invalid result), its entries
//                                          // are outlined in red and its reason is written.
#pragma once

#include <string>

#include "redist/common/family.hpp"

namespace redist::svg {

struct Conflict;  // redist/svg/gantt.hpp

// Empty for a family without a picture: HasChartFace<F> is then false (the faces test says so).
template <class F>
struct ChartFace {};

template <class F>
concept HasChartFace = Family<F> &&
    requires(const typename F::Instance& instance, const typename F::Result& result,
             const std::string& title, const Conflict* conflict) {
  ChartFace<F>::limits(instance);
  ChartFace<F>::limits(instance, result);
  { ChartFace<F>::chart(instance, result, title) } -> std::same_as<std::string>;
  { ChartFace<F>::chart(instance, result, title, conflict) } -> std::same_as<std::string>;
};

}  // namespace redist::svg
