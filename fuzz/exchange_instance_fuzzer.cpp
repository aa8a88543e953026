// Exchange instance reader (docs/exchange.md): any bytes either read or refused with an
// InputError. A read instance has finite bounds, and its `whole` plan passes the validator.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/io/exchange_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const exchange::Instance instance =
        io::read_exchange_instance(io::parse_document(fuzz::as_text(data, size)));
    const exchange::Bounds b = exchange::bounds(instance);
    fuzz::require(std::isfinite(b.lower_bound) && b.lower_bound >= 0,
                  "exchange lower bound " + fuzz::show(b.lower_bound));
    if (instance.messages.size() > 20'000) return;
    const exchange::Plan plan = exchange::plan_whole(instance);
    const CheckResult verdict = exchange::check(instance, plan);
    fuzz::require(verdict.valid, "whole plan invalid: " + verdict.reason);
    fuzz::parse_output(io::exchange_plan_json(plan), "exchange_plan_json");
  });
  return 0;
}
