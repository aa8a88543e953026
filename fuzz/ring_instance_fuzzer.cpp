// Ring instance reader (docs/formats.md): any bytes either read as a valid instance or refused with
// an InputError. A read instance must survive writing and reading back unchanged, and its lower
// bounds must be finite and >= 0.
#include <cmath>

#include "fuzz/fuzz_support.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/bounds.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const ring::Instance instance =
        io::read_ring_instance(io::parse_document(fuzz::as_text(data, size)));
    const std::string written = io::write_ring_instance(instance).dump();
    fuzz::parse_output(written, "write_ring_instance");
    const ring::Instance again = fuzz::must_succeed("reading back a ring instance", [&] {
      return io::read_ring_instance(io::parse_document(written));
    });
    fuzz::require(again.bidirectional == instance.bidirectional && again.loads == instance.loads &&
                      again.targets == instance.targets && again.cost_next == instance.cost_next &&
                      again.cost_prev == instance.cost_prev,
                  "ring instance changed by writing and reading back");
    const ring::BoundReport report = ring::bounds(instance);
    fuzz::require(std::isfinite(report.lower_bound) && report.lower_bound >= 0,
                  "ring lower bound not finite or negative: " + fuzz::show(report.lower_bound));
    for (const auto& [name, value] : report.terms) {
      fuzz::require(!value || std::isfinite(*value), "ring bound term " + name + " not finite");
    }
  });
  return 0;
}
