// JSON reading and writing of ring instances and schedules, exactly per docs/formats.md.
#pragma once

#include <array>
#include "redist/io/family_json.hpp"
#include "redist/io/json.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/family.hpp"
#include "redist/ring/limits.hpp"
#include "redist/ring/model.hpp"
#include "redist/ring/validate.hpp"

namespace redist::io {

// {"ring": {"bidirectional": b, "loads": [...], "targets"|"delta": [...], "cost_next": x|[...],
//  "cost_prev": x|[...]}}. Throws InputError with the JSONPath of the first problem.
ring::Instance read_ring_instance(const Json& document);

// The links of a ring object at `path` for n processors, as every format that describes a ring
// gives them: "bidirectional" (default false), "cost_next" and, exactly when bidirectional,
// "cost_prev"; a cost is one number for every link or an array of n numbers, each > 0.
struct RingLinks {
  bool bidirectional = false;
  std::vector<double> cost_next, cost_prev;
};
RingLinks read_ring_links(const Json& ring, const std::string& path, std::size_t n);

// A schedule document as written by `plan`. Only the format is checked here (types, required
// fields); whether it respects the model is the validator's job (ring/validate.hpp), so unknown
// processors, negative counts, unknown direction names and the like are read as they are.
// Transfers are streamed (ArrayStream): memory stays proportional to the runs, not to a DOM.
// Unknown members (at the top level and in runs) are InputErrors, as are more than `max_runs`
// runs (refused while streaming, before their memory is taken). A member the document lacks is
// "not stated" (ring::Stated); a stated one is compared by the validator.
struct RingScheduleDocument {
  ring::Schedule schedule;  // a run whose direction is unknown reads as `next`
  ring::Stated stated;      // which claims the document states, which directions were unknown
};
RingScheduleDocument read_ring_schedule(std::string_view text,
                                        std::size_t max_runs = ring::kMaxCheckRuns);

// The schedule as JSON text: top-level members one per line, `flows` inline, one transfer per
// line. Written directly, without a DOM (a 10^6-run schedule is one pass over the runs).
// The claims are the planner's as they are (io::write_plan_claims); the bound terms are not
// written (`redist ring bound` lists the papers' terms).
std::string ring_schedule_json(const ring::Schedule& schedule);
// `redist ring bound`'s output: {"lower_bound": x, "terms": {name: value or null, ...}}.
std::string ring_bound_text(const ring::BoundReport& report);
OrderedJson write_ring_instance(const ring::Instance& instance);

// The family's JSON face (redist/io/family_json.hpp): the plan entry point's options, the instance,
// the result and `check`'s verdict on a result document.
template <>
struct JsonFace<ring::Family> {
  using F = ring::Family;
  static constexpr std::array<std::string_view, 4> option_names{"algorithm", "solver", "time_limit",
                                                                "format"};
  static F::Options options(const EntryOptions& o);
  static F::Instance read_instance(const Json& document);
  static std::string write(const F::Result& result);
  using Document = RingScheduleDocument;
  static Document read_document(std::string_view text);
  static CheckResult check(const F::Instance& instance, const Document& document);
  static const F::Result& result(const Document& document) { return document.schedule; }
};

}  // namespace redist::io
