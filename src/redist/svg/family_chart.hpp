// redist/svg/family_chart.hpp: a family's picture face (redist/common/family.hpp): the chart of a
// plan (`--gantt FILE`), within the documented size limits (docs/formats.md "Pictures").
//
// ChartFace<F> is specialized for each family F next to its chart (redist/svg/<family>_*.hpp):
//   static void limits(const Instance&);   // OptionError at "gantt" when even an empty plan's
//                                          // chart would exceed the limits (checked before
//                                          // planning)
//   static std::string chart(const Instance&, const Result&, const std::string& title);
//                                          // the SVG; OptionError at "gantt" beyond the limits
#pragma once

#include <string>

#include "redist/common/family.hpp"

namespace redist::svg {

// Empty for a family without a picture: HasChartFace<F> is then false (the faces test says so).
template <class F>
struct ChartFace {};

template <class F>
concept HasChartFace = Family<F> &&
    requires(const typename F::Instance& instance, const typename F::Result& result,
             const std::string& title) {
  ChartFace<F>::limits(instance);
  { ChartFace<F>::chart(instance, result, title) } -> std::same_as<std::string>;
};

}  // namespace redist::svg
