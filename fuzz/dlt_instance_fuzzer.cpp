// Divisible-load instance reader (docs/star.md, STAR §5): any bytes either read or refused with an
// InputError. A read instance is solved by LP 7's closed-form search; small ones also get their
// transfers (equations 8-9), and the output has finite numbers only.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/dlt.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const star::DltInstance instance =
        io::read_dlt_instance(io::parse_document(fuzz::as_text(data, size)));
    star::DltSchedule schedule = star::solve_dlt_fast(instance);
    fuzz::require(std::isfinite(schedule.makespan) && schedule.makespan >= 0,
                  "dlt makespan " + fuzz::show(schedule.makespan));
    if (instance.alpha.size() <= 64) star::dlt_transfers(schedule);
    fuzz::parse_output(io::dlt_schedule_json(schedule).dump(), "dlt_schedule_json");
  });
  return 0;
}
