// The JSON entry points of redist/dlt.hpp: what `redist dlt plan|check` print.
#include "redist/dlt.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/options.hpp"
#include "redist/text/dlt_summary.hpp"

namespace redist::dlt {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.dlt", [&] {
    const io::EntryOptions o(options, {"solver", "format"});
    const std::string solver = o.text("solver", "fast");
    const bool text = o.wants_text();
    const Instance in = io::read_dlt_instance(io::parse_document(instance));
    const Schedule schedule = plan(in, {parse_solver(solver)});
    if (text) return text::dlt_summary(in, schedule, check(in, schedule), "redist dlt plan", "");
    return io::dlt_plan_json(schedule);
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.dlt", [&] {
    const Instance in = io::read_dlt_instance(io::parse_document(instance));
    const io::DltScheduleDocument doc = io::read_dlt_schedule(schedule);
    return io::check_result_text(check(in, doc.schedule, doc.stated));
  });
}

}  // namespace redist::dlt
