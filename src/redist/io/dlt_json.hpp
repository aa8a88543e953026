// JSON reading and writing of divisible-load instances and schedules (docs/star.md, STAR §5).
#pragma once

#include <string>
#include <string_view>

#include "redist/dlt/model.hpp"
#include "redist/dlt/validate.hpp"
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

}  // namespace redist::io
