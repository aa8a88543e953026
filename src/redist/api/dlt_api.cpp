// The JSON entry points of redist/dlt.hpp: what `redist dlt plan|check` print.
#include "redist/api/entry_points.hpp"
#include "redist/dlt.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/options.hpp"

namespace redist::dlt {

std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view schedule) {
  return api::check_json<Family>(instance, schedule);
}

}  // namespace redist::dlt
