// Ring schedule reader (docs/formats.md, streamed transfers): any bytes either read or refused with
// an InputError; what is read is written back with finite numbers only, and reading that back and
// writing it again gives the same text.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/ring_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const io::RingScheduleDocument document = io::read_ring_schedule(fuzz::as_text(data, size));
    const std::string written = io::ring_schedule_json(document.schedule);
    fuzz::parse_output(written, "ring_schedule_json");
    const std::string again = io::ring_schedule_json(fuzz::must_succeed(
        "reading back a ring schedule", [&] { return io::read_ring_schedule(written).schedule; }));
    fuzz::require(again == written, "ring schedule text changed by reading and writing back:\n" +
                                        written + "\n---\n" + again);
  });
  return 0;
}
