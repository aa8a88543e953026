// Divisible-load instance reader (docs/star.md, STAR §5): any bytes either read or refused with an
// InputError. A read instance is solved by LP 7's closed-form search; small ones also get their
// transfers (equations 8-9), and the output has finite numbers only.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/io/dlt_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const dlt::Instance instance =
        io::read_dlt_instance(io::parse_document(fuzz::as_text(data, size)));
    dlt::Schedule schedule = dlt::solve_fast(instance);
    fuzz::require(std::isfinite(schedule.makespan) && schedule.makespan >= 0,
                  "dlt makespan " + fuzz::show(schedule.makespan));
    if (instance.alpha.size() <= 64) dlt::add_transfers(schedule);
    fuzz::parse_output(io::dlt_plan_json(schedule), "dlt_plan_json");
  });
  return 0;
}
