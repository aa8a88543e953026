// The JSON entry points of redist/lau.hpp: what `redist lau plan|check|eval` print.
#include <fmt/format.h>

#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/lau.hpp"
#include "redist/text/lau_summary.hpp"

namespace redist::lau {
namespace {

// The core reports overflows of computed values (traffic, times, h) at "flows" or "h": here they
// are located at the flows they come from, `flows_path`.
template <typename Body>
auto flows_located(const std::string& flows_path, Body&& body) {
  try {
    return body();
  } catch (const InputError& e) {
    if (e.path() == "flows" || e.path() == "h") throw InputError(e.message(), flows_path);
    throw;
  }
}

std::string time_text(const Time& t) { return t ? fmt::format("{}", *t) : "null"; }

// A claimed value of the schedule document that differs from the recomputed one, or "".
std::string claim_mismatch(const io::Json& document, const char* key, const Time& actual) {
  const auto it = document.find(key);
  if (it == document.end()) return "";
  const Time claimed = it->is_null() ? Time{} : Time{io::as_int64(*it, io::child_path("$", key))};
  if (claimed == actual) return "";
  return fmt::format("{} is {} but the flows give {}", key, time_text(claimed), time_text(actual));
}

std::string check_document(const Instance& instance, const io::Json& schedule) {
  io::as_object(schedule, "$");
  io::reject_unknown_fields(
      schedule, "$",
      {"algorithm", "mode", "flows", "h", "t_single", "t_multi", "traffic", "optimal"});
  const auto flows = io::as_int64_array(io::require(schedule, "$", "flows"), "$.flows");
  Mode mode = Mode::single;
  if (const auto it = schedule.find("mode"); it != schedule.end()) {
    const std::string name = io::as_string(*it, "$.mode");
    if (name != "single" && name != "multi")
      throw InputError("unknown mode '" + one_line(name, 40) + "' (expected single or multi)",
                       "$.mode");
    mode = name == "single" ? Mode::single : Mode::multi;
  }
  if (const auto it = schedule.find("algorithm"); it != schedule.end())
    io::as_string(*it, "$.algorithm");
  if (const auto it = schedule.find("optimal"); it != schedule.end()) io::as_bool(*it, "$.optimal");
  CheckResult verdict = flows_located("$.flows", [&] { return check(instance, flows, mode); });
  if (verdict.valid) {
    const Evaluation e = flows_located("$.flows", [&] { return evaluate_flows(instance, flows); });
    for (const auto& [key, value] : {std::pair{"t_single", e.t_single},
                                     {"t_multi", e.t_multi},
                                     {"h", Time{e.h}},
                                     {"traffic", Time{e.traffic}}}) {
      if (std::string why = claim_mismatch(schedule, key, value); !why.empty())
        verdict = {false, 0.0, why};
      if (!verdict.valid) break;
    }
  }
  return io::check_result_text(verdict);
}

}  // namespace

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.lau", [&] {
    const io::EntryOptions o(options, {"algorithm", "mode", "format"});
    const PlanOptions plan_options{o.text("algorithm", "optimal"),
                                   parse_mode(o.text("mode", "single"))};
    const bool text = o.wants_text();
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), false);
    return flows_located("$.lau.loads", [&] {
      const Plan p = plan(doc.instance, plan_options);
      if (text) {
        return text::lau_summary(doc.instance, p, plan_options.mode, "redist lau plan", "");
      }
      return io::lau_plan_json(p, plan_options.mode, p.optimal);
    });
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.lau", [&] {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), false);
    return check_document(doc.instance, io::parse_document(schedule));
  });
}

std::string eval_json(std::string_view instance) {
  return io::located_in("$.lau", [&] {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), true);
    return flows_located("$.lau.flows", [&] {
      const Evaluation e = evaluate_flows(doc.instance, doc.flows);
      io::OrderedJson out;
      out["t_single"] = e.t_single ? io::OrderedJson(*e.t_single) : io::OrderedJson(nullptr);
      out["t_multi"] = e.t_multi ? io::OrderedJson(*e.t_multi) : io::OrderedJson(nullptr);
      out["t_multi_by"] = e.multi_by_simulation
                              ? "simulation"
                              : "closed form (the simulation would exceed its step budget)";
      out["traffic"] = e.traffic;
      out["h"] = e.h;
      return io::output_text(out);
    });
  });
}

}  // namespace redist::lau
