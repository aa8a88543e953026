// `redist star order` (docs/star.md, STAR Theorem 1): an order instance either read or refused with
// an InputError. Instances moving at most 10^5 tasks are planned (one transfer per task) and the
// plan is printed with finite numbers only.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/order.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const star::OrderInstance instance =
        io::read_order_instance(io::parse_document(fuzz::as_text(data, size)));
    std::int64_t moved = 0;
    for (std::int64_t d : instance.delta) moved += d > 0 ? d : 0;  // read: no overflow
    if (moved > 100000) return;
    const star::Schedule schedule = star::order(instance);
    fuzz::require(static_cast<std::int64_t>(schedule.transfers.size()) == moved,
                  "plan_order does not write one transfer per moved task");
    fuzz::parse_output(io::star_schedule_json(schedule), "star order output");
  });
  return 0;
}
