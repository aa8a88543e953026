// JSON reading and writing of divisible-load instances and schedules (docs/star.md, STAR §5).
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "redist/dlt/family.hpp"
#include "redist/dlt/model.hpp"
#include "redist/dlt/validate.hpp"
#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"

namespace redist::io {

// {"dlt": {"b": [...], "s": [...], "alpha": [...]}}. InputError with the JSONPath of the first
// problem (e.g. `$.dlt.alpha[3]`).
dlt::Instance read_dlt_instance(const Json& document);

// A divisible-load schedule document as read: its transfers and the claims it states (which of
// them the validator compares).
struct DltScheduleDocument {
  dlt::Schedule schedule;
  dlt::Stated stated;
};

// A schedule as written by `dlt plan`. Only the format is checked (types, required fields, no
// member `dlt plan` does not write); unknown workers or negative amounts are read as they are
// (and found invalid by the validator). `makespan` and `delta` are optional (absent: not stated).
// Transfers are streamed.
DltScheduleDocument read_dlt_schedule(std::string_view text);

// The plan as `dlt plan` prints it: {"algorithm": "lp7", "solver", "makespan", "lower_bound",
// "optimal", "delta", "transfers"}.
std::string dlt_plan_json(const dlt::Schedule& schedule);

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<dlt::Family> {
  using F = dlt::Family;
  static constexpr std::array<std::string_view, 2> option_names{"solver", "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = DltScheduleDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static const F::Result& result(const Document& document) { return document.schedule; }
};

}  // namespace redist::io
