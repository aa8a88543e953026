// `redist ring check` (docs/formats.md): the input is `instance \0 schedule`. The validator must
// return a verdict; a valid schedule has a finite makespan no shorter than the instance's lower
// bound.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/validate.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const ring::Instance instance = io::read_ring_instance(io::parse_document(documents.first));
    const io::RingScheduleDocument schedule = io::read_ring_schedule(documents.second);
    const CheckResult result = ring::check(instance, schedule.schedule, schedule.stated);
    if (!result.valid) return;
    fuzz::require(std::isfinite(result.makespan) && result.makespan >= 0,
                  "valid ring schedule with makespan " + fuzz::show(result.makespan));
    const double bound = ring::bounds(instance).lower_bound;
    fuzz::require(fuzz::at_most(bound, result.makespan),
                  "valid ring schedule of makespan " + fuzz::show(result.makespan) +
                      " beats the lower bound " + fuzz::show(bound));
  });
  return 0;
}
