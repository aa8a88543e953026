// redist/text/family_text.hpp: a family's text face (redist/common/family.hpp): the readable
// summary of a plan (`--format text`, docs/formats.md "Text summaries").
//
// TextFace<F> is specialized for each family F next to its summary
// (redist/text/<family>_summary.hpp):
//   static std::string summary(const Instance&, const Result&, const CheckResult& verdict,
//                              std::string_view heading, std::string_view source);
// `verdict` is the family's validator on the result; `source` names the instance file ("" for
// none).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/family.hpp"

namespace redist::text {

// Empty for a family without a text face: HasTextFace<F> is then false (the faces test says so).
template <class F>
struct TextFace {};

template <class F>
concept HasTextFace = Family<F> &&
    requires(const typename F::Instance& instance, const typename F::Result& result,
             const CheckResult& verdict, std::string_view words) {
  { TextFace<F>::summary(instance, result, verdict, words, words) } -> std::same_as<std::string>;
};

}  // namespace redist::text
