// Picture of a SliceRing solution (`--gantt` on `redist slicering plan|check`), as a standalone
// SVG document.
//
// The q processors of the ring are drawn on a circle in ring order, clockwise from the top, each
// labelled with its index ("P3"), its cycle-time w, its share alpha and the two terms of its time
// per iteration (computation alpha W w and communication H (c to pred + c to succ)); the processor
// whose time is the makespan is outlined. Each link of the ring is labelled with its
// communication costs c (time per unit of data; "a / b" when the two directions differ: first
// from the processor earlier in ring order). The processors left out of the ring are listed in
// grey below it with their cycle-times. The title gives the algorithm, the makespan (T_step), q
// of p, the lower bound and whether optimality is proven.
//
// Size: a picture shows at most kRingPictureMaxProcessors processors (the unchosen ones are
// listed) and kRingPictureMaxRing in the ring (beyond, the circle is unreadable);
// require_ring_picture_size refuses larger ones, and slicering_ring_svg calls it itself.
#pragma once

#include <cstddef>
#include <string>

#include "redist/slicering/family.hpp"
#include "redist/slicering/model.hpp"
#include "redist/svg/family_chart.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

inline constexpr std::size_t kRingPictureMaxProcessors = 500;
inline constexpr std::size_t kRingPictureMaxRing = 60;

// Throws OptionError at "gantt" when a picture of a cluster of `processors` and a ring of
// `ring_size` is over the limits; ring_size = 0 checks the cluster alone (before planning).
void require_ring_picture_size(std::size_t processors, std::size_t ring_size);

// The picture of `solution` on `cluster`; its title line is `title` (may be empty), then the
// solution's algorithm, makespan, q, lower bound and optimality. The ring must name distinct
// processors of the cluster and have one share per member (InputError otherwise), unless the
// solution failed slicering::check and is drawn with `conflict` (gantt.hpp): the reason in red
// under the subtitle and the members the verdict's entries name (ring positions) outlined in red;
// a processor named twice is then drawn at both places, and a ring that cannot be drawn (empty,
// shares not one per member, a member that is no processor) is left out, with a note.
std::string slicering_ring_svg(const slicering::Cluster& cluster,
                               const slicering::Solution& solution, const std::string& title,
                               const Conflict* conflict = nullptr);

template <>
struct ChartFace<slicering::Family> {
  static void limits(const slicering::Cluster& instance) {
    require_ring_picture_size(instance.size(), 0);
  }
  static void limits(const slicering::Cluster& instance, const slicering::Solution& result) {
    require_ring_picture_size(instance.size(), result.ring.size());
  }
  static std::string chart(const slicering::Cluster& instance, const slicering::Solution& result,
                           const std::string& title, const Conflict* conflict = nullptr) {
    limits(instance, result);
    return slicering_ring_svg(instance, result, title, conflict);
  }
};

}  // namespace redist::svg
