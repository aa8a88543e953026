// redist/api/entry_points.hpp: the JSON entry points of every family, written once over its faces
// (redist/api/families.hpp): what `redist FAMILY plan|check` print, for the documents they read.
// Each family's public plan_json and check_json (redist/<family>.hpp) are these, for its Family.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "redist/api/families.hpp"
#include "redist/io/json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"

namespace redist::api {

// F::plan, with an unknown algorithm's error followed by the nearest name ("did you mean ...").
template <Family F>
typename F::Result plan_named(const typename F::Instance& instance,
                              const typename F::Options& options) {
  if constexpr (requires { options.algorithm; }) {
    return io::suggesting("algorithm", options.algorithm, io::names_of(F::algorithms()),
                          [&] { return F::plan(instance, options); });
  } else {
    return F::plan(instance, options);
  }
}

// Runs `body` (planning and rendering) with the errors the family relocates (JsonFace's
// locate_plan), or as is.
template <Family F, class Body>
auto plan_located(Body&& body) {
  if constexpr (requires { io::JsonFace<F>::locate_plan(body); }) {
    return io::JsonFace<F>::locate_plan(body);
  } else {
    return body();
  }
}

// The plan (a JSON document), or with {"format": "text"} its readable summary. Options: the
// family's (JsonFace::option_names); errors as InputError located in the instance document.
template <FamilyWithFaces F>
std::string plan_json(std::string_view instance, std::string_view options) {
  using Face = io::JsonFace<F>;
  return io::located_in(F::root, [&] {
    const io::EntryOptions entry(options, Face::option_names);
    const typename F::Options plan_options = Face::options(entry);
    const bool text = entry.wants_text();
    const typename F::Instance in = Face::read_instance(io::parse_document(instance));
    return plan_located<F>([&] {
      const typename F::Result result = plan_named<F>(in, plan_options);
      if (!text) return Face::write(result);
      const std::string heading = "redist " + std::string(F::name) + " plan";
      return text::TextFace<F>::summary(in, result, F::check(in, result), heading, "");
    });
  });
}

// The validator's verdict on a result document and the claims it states ({"valid": ...}).
template <FamilyWithFaces F>
std::string check_json(std::string_view instance, std::string_view result) {
  return io::located_in(F::root, [&] {
    using Face = io::JsonFace<F>;
    const typename F::Instance in = Face::read_instance(io::parse_document(instance));
    return io::check_result_text(Face::check(in, Face::read_document(result)));
  });
}

// Only a valid result is drawn (the renderers draw what the validator accepts):
// std::invalid_argument "cannot draw an invalid schedule: <the validator's reason>" otherwise.
inline void require_drawable(const CheckResult& verdict) {
  if (!verdict.valid) {
    throw std::invalid_argument("cannot draw an invalid schedule: " + verdict.reason);
  }
}

// The picture of a valid result document: the SVG `redist FAMILY check --gantt` writes for it,
// with the title line `title`. InputError (located as check_json locates it) for a malformed
// document or a chart over the size limits (at "gantt", refused before checking);
// std::invalid_argument "cannot draw an invalid schedule: <the validator's reason>" when the
// family's validator refuses the result (the renderers draw what the validator accepts).
template <FamilyWithFaces F>
std::string chart_svg(std::string_view instance, std::string_view result,
                      const std::string& title) {
  using Face = io::JsonFace<F>;
  return io::located_in(F::root, [&] {
    const typename F::Instance in = Face::read_instance(io::parse_document(instance));
    const typename Face::Document document = Face::read_document(result);
    svg::ChartFace<F>::limits(in, Face::result(document));
    require_drawable(Face::check(in, document));
    return svg::ChartFace<F>::chart(in, Face::result(document), title);
  });
}

}  // namespace redist::api
