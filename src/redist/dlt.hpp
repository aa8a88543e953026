// redist/dlt.hpp: redistributing divisible load on a switch, multiport and overlapped (STAR §5:
// LP 7 and equations 8-9; docs/star.md, docs/formats.md).
//
// Typed API (namespace redist::dlt):
//   Instance, Schedule, Transfer           the model (redist/star/dlt.hpp)
//   plan(instance, options)                the optimal schedule (LP 7), by the fast closed-form
//                                          search (default) or CLP
//   check(instance, schedule)              the independent validator's verdict
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
#pragma once

#include <string>
#include <string_view>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/star/dlt.hpp"
#include "redist/star/dlt_validate.hpp"

namespace redist::dlt {

using Instance = star::DltInstance;
using Schedule = star::DltSchedule;
using Transfer = star::DltTransfer;
using ClaimedSchedule = star::DltClaimedSchedule;

struct PlanOptions {
  std::string solver = "fast";  // fast | lp
};

// The optimal schedule (optimal = true, lower_bound = makespan), re-checked by the validator.
inline Schedule plan(const Instance& instance, const PlanOptions& options = {}) {
  return star::plan_dlt(instance, options.solver);
}

// The validator's verdict on a claimed schedule (makespan and delta compared when given).
inline CheckResult check(const Instance& instance, const ClaimedSchedule& schedule) {
  star::validate_dlt_instance(instance);
  return star::validate_dlt_schedule(instance, schedule);
}

// `redist dlt plan`: instance {"dlt": {"b", "s", "alpha"}}, options {"solver"}.
std::string plan_json(std::string_view instance, std::string_view options = "{}");
// `redist dlt check`: {"valid": true, "makespan": m} or {"valid": false, "reason": r}.
std::string check_json(std::string_view instance, std::string_view schedule);

}  // namespace redist::dlt
