// The JSON entry points of redist/lau.hpp: what `redist lau plan|check|eval` print.
#include "redist/api/entry_points.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/lau.hpp"

namespace redist::lau {
std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return api::check_json<Family>(instance, schedule);
}

std::string eval_json(std::string_view instance) {
  return io::located_in("$.lau", [&] {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(instance), true);
    return io::lau_flows_located("$.lau.flows", [&] {
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
