// Path-aware reading of JSON values (docs/formats.md). Every reader throws InputError naming the
// JSONPath of the offending value (`$.ring.loads[3]`), never returning a truncated or rounded
// value.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/common/result.hpp"

namespace redist::io {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Hands the elements of one top-level array member (`$.<member>[k]`) to `consume` as soon as each
// is parsed, then drops it: the document keeps an empty array there. A schedule of 10^6 runs is
// thereby read without ever existing as a DOM of 10^6 objects.
struct ArrayStream {
  std::string member;
  std::function<void(const Json& element, std::size_t index)> consume;
};

// The limits of every JSON document redist reads, whatever the command: enforced while reading,
// so a document over them costs at most its own text. Our formats nest 4 levels deep; the value
// count excludes the elements of a streamed array (a schedule's transfers), whose runs are read
// one at a time.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 30;  // 1 GiB of text
struct JsonLimits {
  std::size_t depth = 64;
  std::size_t values = 25'000'000;
};

// A result that does not fit a double (an overflow to inf, or NaN): the input's magnitudes are
// too extreme. Thrown by the writers rather than printing a non-number.
class NonFiniteResult : public InputError {
 public:
  explicit NonFiniteResult(const std::string& what)
      : InputError(what +
                       " is not a finite number: the input's magnitudes are beyond double "
                       "precision (scale the costs, speeds or loads)",
                   "output") {}
};

// The one member of a document that no reader sees: a string at the top level naming the
// document's JSON Schema, for editors and validators (docs/schemas/).
inline constexpr std::string_view kSchemaReference = "$schema";

// Parses a whole document. Malformed JSON, numbers that overflow a double, duplicate keys and
// documents over the limits above are InputErrors at the JSONPath where parsing stopped. A
// top-level "$schema" must be a string and is removed (kSchemaReference).
Json parse_document(std::string_view text, const ArrayStream* stream = nullptr,
                    const JsonLimits& limits = {});

// The whole content of a file ("-" or "" for standard input); InputError when unreadable or
// larger than kMaxDocumentBytes.
std::string read_text(const std::string& file);

// read_text + parse_document.
Json read_document(const std::string& file);

// A double as a JSON number: shortest round-trip form, with ".0" on integral values.
// NonFiniteResult for inf or NaN, which JSON cannot hold.
std::string json_number(double value);

// NonFiniteResult naming the first number of `document` that is inf or NaN (which nlohmann would
// print as null): the last check before any output document is printed.
void require_finite_numbers(const OrderedJson& document);

// The text of an output document, as every command prints it: top-level members one per line,
// arrays of scalars inline, arrays of objects one object per line, a final newline. Calls
// require_finite_numbers first.
std::string output_text(const OrderedJson& document);

// A `check` verdict as every family prints it: {"valid": true, "makespan": m} or
// {"valid": false, "reason": r}.
std::string check_result_text(const CheckResult& result);

// The members every plan output starts with (docs/formats.md), shared by the families' schedule
// formats.
struct PlanSummary {
  std::string algorithm;
  std::optional<double> makespan;  // absent in a document without one: nothing to compare
  std::optional<double> lower_bound;
  std::optional<bool> optimal;
  std::optional<Status> status;  // absent in documents written before plans stated it
};

// Reads them from a schedule document's top-level object, each optional; a null lower_bound or
// optimal counts as absent; a makespan, when present, must be a number; a status one of the words
// of to_string(Status), "optimal" exactly when optimal is true (when both are stated).
PlanSummary read_plan_summary(const Json& document);

// The `status` member of a plan document (at $.status): one of the words of to_string(Status),
// "optimal" exactly when the document's optimal, when stated, is true. InputError otherwise.
Status read_status(const Json& value, std::optional<bool> optimal);

// The claims a document states, as a planner's result holds them: makespan 0 and optimal false
// when absent; the status, when absent, "optimal" or "feasible" by `optimal`. A document carries
// no proof: proof stays Proof::none.
void read_plan_claims(const PlanSummary& summary, PlanClaims& claims);

// The members every schedule document shares (ring, star): the top level is an object with only
// `members`, `transfers` is an array (its elements are the caller's), the plan summary, `gap` a
// number and `notes` strings, when present.
struct ScheduleHeader {
  PlanSummary summary;
  std::vector<std::string> notes;
};
ScheduleHeader read_schedule_header(const Json& document,
                                    std::initializer_list<std::string_view> members);
// Appends `{`, then a planner's claims one per line: "algorithm", "makespan", "lower_bound" and
// "gap" (PlanClaims::gap()) when known, "optimal" and "status"; the caller appends the rest and
// `}`.
void write_plan_claims(std::string& out, const PlanClaims& claims);

std::string child_path(const std::string& path, std::string_view key);
std::string index_path(const std::string& path, std::size_t index);

// The object at `path`, or InputError("must be an object").
const Json& as_object(const Json& value, const std::string& path);
const Json& as_array(const Json& value, const std::string& path);
// Member `key` of an object; InputError("missing field") when absent.
const Json& require(const Json& object, const std::string& path, std::string_view key);
// The message of a member that the object does not allow (a typo, or a field of another document);
// it may go on with " (did you mean 'cost_next'?)".
inline constexpr std::string_view kUnknownField = "unknown field";
// Rejects members not in `allowed` (catches typos such as "cost_nxt": "unknown field (did you
// mean 'cost_next'?)").
void reject_unknown_fields(const Json& object, const std::string& path,
                           std::initializer_list<std::string_view> allowed);

// A JSON integer in the signed 64-bit range. Floats (even 5.0) are rejected.
std::int64_t as_int64(const Json& value, const std::string& path);
// A finite JSON number.
double as_finite_number(const Json& value, const std::string& path);
// A finite JSON number that is 0 or not below the smallest normal double in magnitude (a
// subnormal such as 1e-310 is refused in every document, docs/formats.md).
double as_normal_number(const Json& value, const std::string& path);
// A finite JSON number > 0, and not below the smallest normal double (a subnormal such as
// 1e-310 has lost its precision and turns products into 0 or quotients into inf).
double as_positive_number(const Json& value, const std::string& path);
bool as_bool(const Json& value, const std::string& path);
std::string as_string(const Json& value, const std::string& path);

std::vector<std::int64_t> as_int64_array(const Json& value, const std::string& path);
// An array of finite JSON numbers.
std::vector<double> as_finite_number_array(const Json& value, const std::string& path);

}  // namespace redist::io
