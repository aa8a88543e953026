// Star schedule reader (docs/star.md, streamed transfers): any bytes either read or refused with an
// InputError; what is read is written back with finite numbers only, and reading that back and
// writing it again gives the same text.
#include "fuzz/fuzz_support.hpp"
#include "redist/io/star_json.hpp"

using namespace redist;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::only_input_errors([&] {
    const star::Schedule schedule = io::read_star_schedule(fuzz::as_text(data, size)).schedule;
    const std::string written = io::star_schedule_json(schedule);
    fuzz::parse_output(written, "star_schedule_json");
    const std::string again = io::star_schedule_json(fuzz::must_succeed(
        "reading back a star schedule", [&] { return io::read_star_schedule(written).schedule; }));
    fuzz::require(again == written, "star schedule text changed by reading and writing back:\n" +
                                        written + "\n---\n" + again);
  });
  return 0;
}
