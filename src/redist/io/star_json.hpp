// JSON reading and writing of star instances and schedules (docs/star.md, STAR).
#pragma once

#include <array>
#include <ostream>
#include <string>
#include <string_view>

#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"
#include "redist/star/family.hpp"
#include "redist/star/model.hpp"
#include "redist/star/order.hpp"
#include "redist/star/validate.hpp"

namespace redist::io {

// {"star": {"c": [...], "w": [...], "loads": [...]}}. InputError with the JSONPath of the first
// problem (e.g. `$.star.c[3]`).
star::Instance read_star_instance(const Json& document);

// {"star": {"c": [...], "delta": [...]}} for `redist star order`.
star::OrderInstance read_order_instance(const Json& document);

// A star schedule document as read: the schedule with the claims it states (a lower_bound or
// optimal left out reads as 0 or false, nothing known) and which of the claims the validator
// compares it states.
struct StarScheduleDocument {
  star::Schedule schedule;
  star::Stated stated;
};

// A schedule as written by `plan` or `order`. Only the format is checked (types, required
// fields, no member `plan` does not write); whether it respects the model is validate.hpp's job,
// so unknown workers, negative times, a negative makespan or a `finish` of the wrong length are
// read as they are (and found invalid). `makespan` or `finish` absent: not stated (not compared).
// Transfers are streamed.
StarScheduleDocument read_star_schedule(std::string_view text);

// One member per line, one transfer per line; written without a DOM, in chunks of 64 KB.
void write_star_schedule(std::ostream& stream, const star::Schedule& schedule);
std::string star_schedule_json(const star::Schedule& schedule);

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<star::Family> {
  using F = star::Family;
  static constexpr std::array<std::string_view, 3> option_names{"algorithm", "time_limit",
                                                                "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = StarScheduleDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static const F::Result& result(const Document& document) { return document.schedule; }
};

}  // namespace redist::io
