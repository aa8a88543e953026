// The balance family's picture in the Python package (pictures.hpp): it reads the documents as
// `redist balance advise --gantt` does, refuses a chart over the renderer's limits before
// checking, checks the advice's schedule with the ring validator and draws it with redist/svg/.
#include "pictures.hpp"

#include <stdexcept>

#include "redist/api/entry_points.hpp"
#include "redist/balance.hpp"
#include "redist/io/balance_json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"
#include "redist/svg/ring_gantt.hpp"

namespace redist::python {

namespace {

// The redistribution an advice plans must be a ring instance (targets as many as the loads, with
// the same sum); its errors are placed in the advice document (`$.targets`).
void require_valid_targets(const ring::Instance& moved) {
  try {
    ring::validate_instance(moved);
  } catch (const InputError& e) {
    if (e.path().rfind("targets", 0) == 0) throw InputError(e.message(), "$." + e.path());
    throw;
  }
}

}  // namespace

std::string balance_gantt(std::string_view instance, std::string_view advice,
                          const std::string& title) {
  return io::located_in("$.balance", [&] {
    const balance::AdviseInput in = io::read_advise_instance(io::parse_document(instance));
    const io::Json document = io::parse_document(advice);
    io::as_object(document, "$");
    const std::vector<std::int64_t> targets =
        io::as_int64_array(io::require(document, "$", "targets"), "$.targets");
    const io::RingScheduleDocument schedule =
        io::read_ring_schedule(io::require(document, "$", "schedule").dump());
    const ring::Instance moved = balance::redistribution_instance(in.ring, in.loads, targets);
    require_valid_targets(moved);
    svg::require_gantt_size(moved.size(), schedule.schedule.transfers.size(), "gantt");
    api::require_drawable(ring::check(moved, schedule.schedule, schedule.stated));
    return svg::ring_gantt_svg(moved, schedule.schedule, title);
  });
}

}  // namespace redist::python
