// The JSON entry points of redist/slicering.hpp: what `redist slicering plan|check` print.
#include "redist/api/entry_points.hpp"
#include "redist/io/options.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering.hpp"

namespace redist::slicering {

std::string plan_json(std::string_view instance, std::string_view options) {
  return api::plan_json<Family>(instance, options);
}

std::string check_json(std::string_view instance, std::string_view solution) {
  return api::check_json<Family>(instance, solution);
}

}  // namespace redist::slicering
