// Every family of the list (redist/api/families.hpp) through its JSON entry points, from one input:
// the input is offered to each family's plan entry point as its instance; a family's refusal is an
// InputError, and a plan it prints must be a finite document that its own check entry point finds
// valid. A family added to the list is fuzzed here without another target (docs/fuzzing.md).
//
// The families that search are given {"time_limit": 0.05}, so that no input plans for long.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_support.hpp"
#include "redist/api/entry_points.hpp"
#include "redist/api/families.hpp"

namespace {

template <class F>
constexpr bool takes_time_limit() {
  const auto& names = redist::io::JsonFace<F>::option_names;
  return std::find(names.begin(), names.end(), "time_limit") != names.end();
}

template <class F>
void plan_and_check(const std::string& instance) {
  const std::string options = takes_time_limit<F>() ? R"({"time_limit": 0.05})" : "{}";
  std::string plan;
  if (!redist::fuzz::only_input_errors(
          [&] { plan = redist::api::plan_json<F>(instance, options); })) {
    return;
  }
  const std::string family(F::name);
  const nlohmann::json document = nlohmann::json::parse(plan, nullptr, false);
  redist::fuzz::require(!document.is_discarded(), family + ": plan_json printed no JSON");
  redist::fuzz::require_finite_numbers(document, family + " plan", {"t_single", "t_multi"});
  const std::string verdict = redist::fuzz::must_succeed(family + " check of its own plan", [&] {
    return redist::api::check_json<F>(instance, plan);
  });
  const nlohmann::json checked = nlohmann::json::parse(verdict);
  redist::fuzz::require(checked.value("valid", false),
                        family + ": its own plan checks invalid: " + verdict);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string instance(redist::fuzz::as_text(data, size));
  redist::for_each_family(redist::Families{}, [&]<class F>() { plan_and_check<F>(instance); });
  return 0;
}
