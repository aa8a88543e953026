// `redist slicering check` (docs/slicering.md): the input is `cluster \0 solution`. The checker
// must return a verdict, and a valid solution has a finite, positive step time.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering/validate.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const slicering::Cluster cluster = io::read_cluster(io::parse_document(documents.first));
    const io::SolutionDocument doc =
        io::read_slicering_solution(io::parse_document(documents.second));
    const CheckResult result = slicering::check(cluster, doc.ring, doc.alpha, doc.claims);
    if (!result.valid) return;
    fuzz::require(std::isfinite(result.makespan) && result.makespan > 0,
                  "valid solution with t_step " + fuzz::show(result.makespan));
  });
  return 0;
}
