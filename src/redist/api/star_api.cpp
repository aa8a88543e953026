// The JSON entry points of redist/star.hpp: what `redist star plan|check|order` print.
#include "redist/api/entry_points.hpp"
#include "redist/io/options.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star.hpp"

namespace redist::star {

std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return api::check_json<Family>(instance, schedule);
}

std::string order_json(std::string_view instance) {
  return io::located_in("$.star", [&] {
    return io::star_schedule_json(order(io::read_order_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::star
