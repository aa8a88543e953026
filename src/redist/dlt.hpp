// redist/dlt.hpp: redistributing divisible load on a switch, multiport and overlapped (STAR §5:
// LP 7 and equations 8-9; docs/star.md, docs/formats.md).
//
// Typed API (namespace redist::dlt):
//   Instance, Schedule, Transfer, Solver   the model (redist/dlt/model.hpp)
//   plan(instance, options)                the optimal schedule (LP 7), by the fast closed-form
//                                          search (default) or CLP (redist/dlt/planner.hpp)
//   check(instance, schedule)              the independent validator's verdict
//                                          (redist/dlt/validate.hpp)
// JSON entry points: exactly what `redist dlt plan|check` print; options {"solver": "lp"}.
// The plan entry point also takes {"format": "text"}: it then returns the readable summary of
// `--format text` (redist/text/, docs/formats.md "Text summaries") instead of the JSON.
// Errors: redist::InputError (a std::invalid_argument) whose what() is the command line's error
// line; the typed functions say where in the model's words (`alpha[2]`; an OptionError names the
// option: `solver`), the JSON entry points as the command line does (`$.dlt.alpha[2]`,
// `--solver`).
//
// Example:
//   redist::dlt::Instance d{{1, 1, 2}, {1, 2, 1}, {3, 0, 1}};  // b, s, alpha
//   const redist::dlt::Schedule s = redist::dlt::plan(d);      // s.makespan, s.delta, ...
//   assert(redist::dlt::check(d, s).valid);
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/dlt/model.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/dlt/validate.hpp"

namespace redist::dlt {

// `redist dlt plan`: instance {"dlt": {"b", "s", "alpha"}}, options {"solver"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist dlt check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);

}  // namespace redist::dlt
