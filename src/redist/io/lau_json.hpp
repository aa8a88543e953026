// JSON reading and writing for LAU load distribution (docs/lau.md).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include "redist/common/error.hpp"
#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"
#include "redist/lau/family.hpp"
#include "redist/lau/model.hpp"
#include "redist/lau/validate.hpp"

namespace redist::io {

struct LauDocument {
  lau::Instance instance;
  std::vector<std::int64_t> flows;  // only when read with flows
};

// {"lau": {"loads": [...], "targets": [...] (optional), "flows": [...] (eval only)}}.
// Without targets the sum of loads must be divisible by n (targets = the average). With
// `with_flows` the flows are required, must have n entries and must balance every node
// (l_i + received - sent = t_i); otherwise they are refused as an unknown field. Every error is an
// InputError at the JSONPath of the offending value.
LauDocument read_lau_document(const Json& document, bool with_flows);

// A plan document as read: the plan (its mode single when absent, optimal false when absent) and
// which of its claims it states.
struct LauPlanDocument {
  lau::Plan plan;
  lau::Stated stated;
};

// A plan as `lau plan` prints it: `flows` required; `mode`, `algorithm`, `h`, `t_single`,
// `t_multi` (null: a deadlock), `traffic` and `optimal` optional; no other member. Only the format
// is checked (InputError at the JSONPath of the offending value); whether the flows form a valid
// schedule is lau::check's job.
LauPlanDocument read_lau_plan(const Json& document);

// The plan as JSON text (one member per line, flows inline):
// {"algorithm", "mode", "flows", "h", "t_single", "t_multi", "traffic", "optimal"}.
std::string lau_plan_json(const lau::Plan& plan);

// The core reports overflows of computed values (traffic, times, h) at "flows" or "h": runs
// `body` with such errors located at the flows they come from, `flows_path`.
template <typename Body>
auto lau_flows_located(const std::string& flows_path, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    if (e.path() == "flows" || e.path() == "h") throw InputError(e.message(), flows_path);
    throw;
  }
}

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<lau::Family> {
  using F = lau::Family;
  static constexpr std::array<std::string_view, 3> option_names{"algorithm", "mode", "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = LauPlanDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static const F::Result& result(const Document& document) { return document.plan; }
  // Plans with the errors about flows or h located at the instance's loads.
  template <typename Body>
  static auto locate_plan(Body&& body) {
    return lau_flows_located("$.lau.loads", body);
  }
};

}  // namespace redist::io
