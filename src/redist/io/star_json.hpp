// JSON reading and writing of star instances and schedules (docs/star.md, STAR) and of
// divisible-load instances and schedules (docs/star.md, STAR §5).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "redist/io/json.hpp"
#include "redist/star/dlt.hpp"
#include "redist/star/dlt_validate.hpp"
#include "redist/star/model.hpp"
#include "redist/star/order.hpp"
#include "redist/star/validate.hpp"

namespace redist::io {

// {"star": {"c": [...], "w": [...], "loads": [...]}}. InputError with the JSONPath of the first
// problem (e.g. `$.star.c[3]`).
star::Instance read_star_instance(const Json& document);

// {"star": {"c": [...], "delta": [...]}} for `redist star order`.
star::OrderInstance read_order_instance(const Json& document);

// A schedule as written by `plan` or `order`. Only the format is checked (types, required
// fields, no member `plan` does not write); whether it respects the model is validate.hpp's job,
// so unknown workers, negative times, a negative makespan or a `finish` of the wrong length are
// read as they are (and found invalid). `makespan` or `finish` absent: not given (not compared).
// Transfers are streamed.
star::Schedule read_star_schedule(std::string_view text);

// One member per line, one transfer per line; written without a DOM, in chunks of 64 KB.
void write_star_schedule(std::ostream& stream, const star::Schedule& schedule);
std::string star_schedule_json(const star::Schedule& schedule);

// {"dlt": {"b": [...], "s": [...], "alpha": [...]}}.
star::DltInstance read_dlt_instance(const Json& document);
OrderedJson dlt_schedule_json(const star::DltSchedule& schedule);
// A schedule as written by `dlt plan` (same conventions as read_star_schedule): `makespan` and
// `delta` are optional; unknown members are errors.
star::DltClaimedSchedule read_dlt_schedule(std::string_view text);

}  // namespace redist::io
