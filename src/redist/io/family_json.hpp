// redist/io/family_json.hpp: a family's JSON face (redist/common/family.hpp): how its instance,
// its plan options and its result are read and written, as the command line and the JSON entry
// points do (docs/formats.md).
//
// JsonFace<F> is specialized for each family F, next to its reader and writer
// (redist/io/<family>_json.hpp):
//
//   template <> struct JsonFace<ring::Family> {
//     static constexpr std::array<std::string_view, N> option_names;   // of the plan entry point
//     static Options options(const EntryOptions&);       // the typed options, OptionError at one
//     static Instance read_instance(const Json&);        // InputError at its path in the document
//     static std::string write(const Result&);           // the document `plan` prints
//     using Document = ...;                              // a result document as `check` reads it:
//                                                        // the result and the claims it states
//     static Document read_document(std::string_view);   // InputError at its path
//     static CheckResult check(const Instance&, const Document&);  // the validator's verdict on
//                                                        // the result and its stated claims
//     static const Result& result(const Document&);      // the result it holds, as drawn
//   };
//
// A specialization may add `locate_plan(body)`, which runs the planning and rendering in `body`
// and moves the paths of its errors to the document's (lau's flows).
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/family.hpp"
#include "redist/io/json.hpp"
#include "redist/io/options.hpp"

namespace redist::io {

// Empty for a family without a JSON face: HasJsonFace<F> is then false (the faces test says so).
template <class F>
struct JsonFace {};

template <class F>
concept HasJsonFace = Family<F> &&
    requires(const EntryOptions& options, const Json& document,
             const typename F::Instance& instance, const typename F::Result& result,
             std::string_view text, const typename JsonFace<F>::Document& checked) {
  JsonFace<F>::option_names;
  { JsonFace<F>::options(options) } -> std::same_as<typename F::Options>;
  { JsonFace<F>::read_instance(document) } -> std::same_as<typename F::Instance>;
  { JsonFace<F>::write(result) } -> std::same_as<std::string>;
  { JsonFace<F>::read_document(text) } -> std::same_as<typename JsonFace<F>::Document>;
  { JsonFace<F>::check(instance, checked) } -> std::same_as<CheckResult>;
  { JsonFace<F>::result(checked) } -> std::convertible_to<const typename F::Result&>;
};

}  // namespace redist::io
