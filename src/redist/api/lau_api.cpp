// The JSON entry points of redist/lau.hpp: what `redist lau plan|check|eval` print.
#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"
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

}  // namespace

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.lau", [&] {
    const io::EntryOptions o(options, {"algorithm", "mode", "format"});
    const PlanOptions plan_options{o.text("algorithm", "optimal"),
                                   parse_mode(o.text("mode", "single"))};
    const bool text = o.wants_text();
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), false);
    return flows_located("$.lau.loads", [&] {
      const Plan p =
          io::suggesting("algorithm", plan_options.algorithm, io::names_of(algorithm_names()),
                         [&] { return plan(doc.instance, plan_options); });
      if (!text) return io::lau_plan_json(p);
      return text::lau_summary(doc.instance, p, check(doc.instance, p), "redist lau plan", "");
    });
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.lau", [&] {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), false);
    const io::LauPlanDocument read = io::read_lau_plan(io::parse_document(schedule));
    return io::check_result_text(
        flows_located("$.flows", [&] { return check(doc.instance, read.plan, read.stated); }));
  });
}

std::string eval_json(std::string_view instance) {
  return io::located_in("$.lau", [&] {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), true);
    return flows_located("$.lau.flows", [&] {
      const Evaluation e = evaluate(doc.instance, doc.flows);
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
