// The JSON entry points of redist/ring.hpp: what `redist ring plan|check|bound` print.
#include "redist/api/entry_points.hpp"
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"

namespace redist::ring {

std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return api::check_json<Family>(instance, schedule);
}

std::string bound_json(std::string_view instance) {
  return io::located_in("$.ring", [&] {
    return io::ring_bound_text(bounds(io::read_ring_instance(io::parse_document(instance))));
  });
}

}  // namespace redist::ring
