// `redist star check` (docs/star.md): the input is `instance \0 schedule`. The validator must
// return a verdict; a valid schedule has a finite makespan no shorter than the computation lower
// bound.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const star::Instance instance = io::read_star_instance(io::parse_document(documents.first));
    const io::StarScheduleDocument doc = io::read_star_schedule(documents.second);
    const CheckResult result = star::check(instance, doc.schedule, doc.stated);
    if (!result.valid) return;
    fuzz::require(std::isfinite(result.makespan) && result.makespan >= 0,
                  "valid star schedule with makespan " + fuzz::show(result.makespan));
    const double bound = star::computation_lower_bound(instance);
    fuzz::require(fuzz::at_most(bound, result.makespan),
                  "valid star schedule of makespan " + fuzz::show(result.makespan) +
                      " beats the computation bound " + fuzz::show(bound));
  });
  return 0;
}
