// The shape every readable summary shares (`redist ... plan --format text`, docs/formats.md
// "Text summaries"): a heading naming the command and the instance, the instance's data indented
// below it, then labelled facts aligned in one column (algorithm, makespan, lower bound, gap,
// optimal, status, validator), then the family's own table (who sends what to whom, final counts,
// ring order).
//
// Long lists are cut at kMaxListed entries and long tables at kMaxRows rows, each cut said in the
// text ("... and 9990 more"): the JSON output is the complete answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/common/check.hpp"
#include "redist/common/result.hpp"

namespace redist::text {

inline constexpr std::size_t kMaxListed = 32;  // numbers on one `loads`-like line
inline constexpr std::size_t kMaxRows = 200;   // rows of a table

// A number as a reader wants it: the shortest text that reads back as the same double when that
// has at most 12 characters (67.5, 1e+20), else 10 significant digits.
std::string number(double value);
// The unit of the times of the families whose costs are given as they are (ring, star, dlt): a
// plan's makespan is in the unit of its instance's costs, "time units" in the model's words.
inline constexpr std::string_view kTimeUnits = "time units";
// `value` with its unit: "67.5 time units".
std::string quantity(double value, std::string_view unit);
// Values separated by spaces, at most kMaxListed of them, then "... (N in all)".
std::string numbers(const std::vector<std::int64_t>& values);
std::string numbers(const std::vector<double>& values);

class Summary {
 public:
  void line(std::string_view text);
  void blank();
  // "label       value": the label padded to the column of the values.
  void field(std::string_view label, std::string_view value);
  // The verdict on optimality: "yes (makespan equals the lower bound)", "yes (proven by the exact
  // algorithm)" or "not proven (makespan 12.5% above the lower bound)".
  void optimality(bool optimal, double makespan, std::optional<double> lower_bound,
                  std::string_view algorithm);
  // The same verdict from the plan's own claims, with how optimality was proven: "yes (makespan
  // equals the lower bound)", "yes (proven by exhaustive search)", "yes (the <algorithm> algorithm
  // is optimal on such instances)", "not proven (...% above the lower bound)" (100 times gap()) or
  // "not proven (the plan deadlocks)". Nothing is recomputed: the words follow claims.proof.
  void optimality(const PlanClaims& claims, std::string_view algorithm);
  // A plan's claims, one a line, as every family's summary states them: `makespan` (the family's
  // text, with its unit; empty: the number), `lower bound` (the family's text, with the bound's
  // terms; empty: the number; "none known" without a bound), `gap` (PlanClaims::gap(), the value
  // the JSON documents state; "none known" without one), `optimal` (optimality()) and `status`
  // (to_string(Status)).
  void claims(const PlanClaims& claims, std::string_view algorithm, std::string_view makespan = {},
              std::string_view lower_bound = {});
  // The validator's verdict on what is summarised.
  void validator(bool valid, std::string_view reason);
  // A table, indented by two spaces: each column as wide as its widest cell (the header row
  // included) and two spaces from the next, so that no two values ever touch.
  void table(const std::vector<std::vector<std::string>>& rows);
  // Writes "  ... and N more (the JSON output lists every one)" when `shown` < `total`.
  void rows_left_out(std::size_t shown, std::size_t total);
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// The readable verdict of a `check` command (`redist ring check --format text`): the heading,
// then `valid` with the makespan the validator found, or `INVALID` with its reason. `document`
// names what was checked ("schedule", "plan", "solution"). O(1).
std::string check_summary(const CheckResult& verdict, std::string_view heading,
                          std::string_view document);

}  // namespace redist::text
