// `redist exchange check` (docs/exchange.md): the input is `instance \0 plan`. The validator must
// return a verdict; a valid plan has a finite makespan no shorter than the instance's lower bound.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/io/exchange_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto documents = fuzz::split_documents(fuzz::as_text(data, size));
  fuzz::only_input_errors([&] {
    const exchange::Instance instance =
        io::read_exchange_instance(io::parse_document(documents.first));
    const io::ExchangePlanDocument doc = io::read_exchange_plan(documents.second);
    const CheckResult verdict = exchange::check(instance, doc.plan, doc.stated);
    if (!verdict.valid) return;
    fuzz::require(std::isfinite(verdict.makespan) && verdict.makespan >= 0,
                  "valid exchange plan with makespan " + fuzz::show(verdict.makespan));
    const double bound = exchange::bounds(instance).lower_bound;
    fuzz::require(fuzz::at_most(bound, verdict.makespan),
                  "valid exchange plan of makespan " + fuzz::show(verdict.makespan) +
                      " beats the lower bound " + fuzz::show(bound));
  });
  return 0;
}
