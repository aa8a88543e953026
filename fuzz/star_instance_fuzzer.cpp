// Star instance reader (docs/star.md): any bytes either read or refused with an InputError. A read
// instance has a finite computation lower bound that the no-transfer schedule does not beat.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/planner.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const star::Instance instance =
        io::read_star_instance(io::parse_document(fuzz::as_text(data, size)));
    const double bound = star::computation_lower_bound(instance);
    fuzz::require(std::isfinite(bound) && bound >= 0, "star lower bound " + fuzz::show(bound));
    const star::Schedule idle = star::no_transfer_schedule(instance, "none");
    fuzz::require(std::isfinite(idle.makespan) && fuzz::at_most(bound, idle.makespan),
                  "no-transfer makespan " + fuzz::show(idle.makespan) + " below the lower bound " +
                      fuzz::show(bound));
    fuzz::parse_output(io::star_schedule_json(idle), "star_schedule_json");
  });
  return 0;
}
