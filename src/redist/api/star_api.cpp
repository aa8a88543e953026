// The JSON entry points of redist/star.hpp: what `redist star plan|check|order` print.
#include "redist/io/options.hpp"
#include "redist/io/star_json.hpp"
#include "redist/io/suggest.hpp"
#include "redist/star.hpp"
#include "redist/text/star_summary.hpp"

namespace redist::star {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.star", [&] {
    const io::EntryOptions o(options, {"algorithm", "time_limit", "format"});
    const PlanOptions plan_options{o.text("algorithm", "best"), o.real("time_limit")};
    const bool text = o.wants_text();
    const Instance in = io::read_star_instance(io::parse_document(instance));
    const Schedule schedule =
        io::suggesting("algorithm", plan_options.algorithm, io::names_of(algorithm_names()),
                       [&] { return plan(in, plan_options); });
    if (text) {
      return text::star_summary(in, schedule, check(in, schedule), "redist star plan", "");
    }
    return io::star_schedule_json(schedule);
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.star", [&] {
    const Instance in = io::read_star_instance(io::parse_document(instance));
    const io::StarScheduleDocument doc = io::read_star_schedule(schedule);
    return io::check_result_text(check(in, doc.schedule, doc.stated));
  });
}

std::string order_json(std::string_view instance) {
  return io::located_in("$.star", [&] {
    return io::star_schedule_json(order(io::read_order_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::star
