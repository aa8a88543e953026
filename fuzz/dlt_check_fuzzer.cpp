// `redist dlt check` (docs/star.md, STAR §5): the input is `instance \0 schedule`. The validator
// must return a verdict, and a valid schedule has a finite makespan >= 0.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/dlt/validate.hpp"
#include "redist/io/dlt_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const dlt::Instance instance = io::read_dlt_instance(io::parse_document(documents.first));
    const io::DltScheduleDocument doc = io::read_dlt_schedule(documents.second);
    const CheckResult result = dlt::check(instance, doc.schedule, doc.stated);
    if (!result.valid) return;
    fuzz::require(std::isfinite(result.makespan) && result.makespan >= 0,
                  "valid dlt schedule with makespan " + fuzz::show(result.makespan));
  });
  return 0;
}
