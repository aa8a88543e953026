// The JSON entry points of redist/star.hpp and redist/dlt.hpp: what `redist star plan|check|order`
// and `redist dlt plan|check` print.
#include "redist/dlt.hpp"
#include "redist/io/options.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star.hpp"
#include "redist/text/star_summary.hpp"

namespace redist::star {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.star", [&] {
    const io::EntryOptions o(options, {"algorithm", "format"});
    const PlanOptions plan_options{o.text("algorithm", "best")};
    const bool text = o.wants_text();
    const Instance in = io::read_star_instance(io::parse_document(instance));
    const Schedule schedule = plan(in, plan_options);
    if (text) return text::star_summary(in, schedule, "redist star plan", "");
    return io::star_schedule_json(schedule);
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.star", [&] {
    const Instance in = io::read_star_instance(io::parse_document(instance));
    return io::check_result_text(check(in, io::read_star_schedule(schedule)));
  });
}

std::string order_json(std::string_view instance) {
  return io::located_in("$.star", [&] {
    return io::star_schedule_json(order(io::read_order_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::star

namespace redist::dlt {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.dlt", [&] {
    const io::EntryOptions o(options, {"solver", "format"});
    const PlanOptions plan_options{o.text("solver", "fast")};
    const bool text = o.wants_text();
    const Instance in = io::read_dlt_instance(io::parse_document(instance));
    const Schedule schedule = plan(in, plan_options);
    if (text) return text::dlt_summary(in, schedule, "redist dlt plan", "");
    io::OrderedJson out;
    out["algorithm"] = "lp7";
    out["solver"] = schedule.solver;
    out["makespan"] = schedule.makespan;
    out["lower_bound"] = schedule.lower_bound;
    out["optimal"] = schedule.optimal;
    const io::OrderedJson body = io::dlt_schedule_json(schedule);
    for (const auto& [key, value] : body.items()) {
      if (key != "solver" && key != "makespan") out[key] = value;
    }
    return io::output_text(out);
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.dlt", [&] {
    const Instance in = io::read_dlt_instance(io::parse_document(instance));
    return io::check_result_text(check(in, io::read_dlt_schedule(schedule)));
  });
}

}  // namespace redist::dlt
