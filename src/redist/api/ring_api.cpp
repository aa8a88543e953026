// The JSON entry points of redist/ring.hpp: what `redist ring plan|check|bound` print.
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/io/suggest.hpp"
#include "redist/ring.hpp"
#include "redist/text/ring_summary.hpp"

namespace redist::ring {

std::string plan_json(std::string_view instance, std::string_view options) {
  return io::located_in("$.ring", [&] {
    const io::EntryOptions o(options, {"algorithm", "solver", "time_limit", "format"});
    const PlanOptions plan_options{o.text("algorithm", "auto"),
                                   solver_named(o.text("solver", "fast")), o.real("time_limit")};
    const bool text = o.wants_text();
    const Instance in = io::read_ring_instance(io::parse_document(instance));
    const Schedule schedule =
        io::suggesting("algorithm", plan_options.algorithm, io::names_of(ring_algorithm_names()),
                       [&] { return plan(in, plan_options); });
    if (text) return text::ring_summary(in, schedule, check(in, schedule), "redist ring plan", "");
    return io::ring_schedule_json(schedule);
  });
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return io::located_in("$.ring", [&] {
    const Instance in = io::read_ring_instance(io::parse_document(instance));
    const io::RingScheduleDocument document = io::read_ring_schedule(schedule);
    return io::check_result_text(check(in, document.schedule, document.stated));
  });
}

std::string bound_json(std::string_view instance) {
  return io::located_in("$.ring", [&] {
    return io::ring_bound_text(bounds(io::read_ring_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::ring
