// LAU instance reader (docs/lau.md): any bytes either read or refused with an InputError. A read
// instance is planned by every algorithm in both modes; each plan is printed with finite numbers
// (null only for a deadlock time), its flows balance every node, and no plan beats `optimal`.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/lau/planner.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  io::LauDocument doc;
  if (!fuzz::only_input_errors([&] {
        doc = io::read_lau_document(io::parse_document(fuzz::as_text(data, size)), false);
      })) {
    return 0;
  }
  for (lau::Mode mode : {lau::Mode::single, lau::Mode::multi}) {
    lau::Time best;
    bool have_best = false;
    fuzz::only_input_errors([&] {
      best = lau::time_in(lau::plan(doc.instance, {"optimal", mode}), mode);
      have_best = true;
    });
    for (const char* algorithm : {"linear", "traffic", "optimal-window", "optimal"}) {
      fuzz::only_input_errors([&] {
        const lau::Plan plan = lau::plan(doc.instance, {algorithm, mode});
        fuzz::require(!lau::unbalanced_node(doc.instance, plan.flows),
                      std::string("lau ") + algorithm + " flows do not balance every node");
        if (have_best) {
          fuzz::require(!lau::time_less(lau::time_in(plan, mode), best),
                        std::string("lau ") + algorithm + " beats optimal");
        }
        fuzz::parse_output(io::lau_plan_json(plan), "lau_plan_json", {"t_single", "t_multi"});
      });
    }
  }
  return 0;
}
