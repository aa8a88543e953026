// `redist lau eval` (docs/lau.md): an instance with flows either read (the flows then balance every
// node) or refused with an InputError. The step-by-step simulations must agree with the closed
// forms of LAU Propositions 1 and 2.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/lau/closed_forms.hpp"
#include "redist/lau/simulate.hpp"

using namespace redist;

namespace {

std::string show(const lau::Time& t) { return t ? fuzz::show(*t) : "deadlock"; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const io::LauDocument doc =
        io::read_lau_document(io::parse_document(fuzz::as_text(data, size)), true);
    const lau::Instance& in = doc.instance;
    fuzz::require(!lau::unbalanced_node(in, doc.flows), "eval flows read but unbalanced");
    const lau::Time single = lau::simulate_single(in, doc.flows);
    const lau::Time single_closed = lau::t_single_closed(in, doc.flows);
    fuzz::require(single == single_closed, "single-send simulation " + show(single) +
                                               " != Proposition 1 " + show(single_closed));
    const lau::Time multi_closed = lau::t_multi_closed(in, doc.flows);
    lau::traffic(doc.flows);
    try {
      const auto n = static_cast<std::int64_t>(in.size());
      const lau::Time multi = lau::simulate_multi(in, doc.flows, 2'000'000 / n + 1);
      fuzz::require(multi == multi_closed, "multi-send simulation " + show(multi) +
                                               " != Proposition 2 " + show(multi_closed));
    } catch (const lau::TooManySteps&) {
    }
  });
  return 0;
}
