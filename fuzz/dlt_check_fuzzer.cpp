// `redist dlt check` (docs/star.md, STAR §5): the input is `instance \0 schedule`. The validator
// must return a verdict, and a valid schedule has a finite makespan >= 0.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/dlt_validate.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const star::DltInstance instance = io::read_dlt_instance(io::parse_document(documents.first));
    const star::DltClaimedSchedule schedule = io::read_dlt_schedule(documents.second);
    const star::DltValidationResult result = star::validate_dlt_schedule(instance, schedule);
    if (!result.valid) return;
    fuzz::require(std::isfinite(result.makespan) && result.makespan >= 0,
                  "valid dlt schedule with makespan " + fuzz::show(result.makespan));
  });
  return 0;
}
