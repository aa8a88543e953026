#include "redist/ring/planner.hpp"

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/unidirectional.hpp"

namespace redist::ring {

const std::vector<std::string>& ring_algorithm_names() {
  static const std::vector<std::string> names = {"unidirectional",
                                                 "bidirectional-homogeneous",
                                                 "light",
                                                 "light-enforced",
                                                 "heuristic",
                                                 "exact",
                                                 "auto"};
  return names;
}

Schedule plan_ring(const Instance& in, std::string_view algorithm, Solver /*solver*/) {
  if (algorithm == "unidirectional") return plan_unidirectional(in);
  if (algorithm == "bidirectional-homogeneous") return plan_bidirectional_homogeneous(in);
  if (algorithm == "auto") {
    if (!in.bidirectional) return plan_unidirectional(in);
    if (in.homogeneous()) return plan_bidirectional_homogeneous(in);
    throw InputError(
        "heterogeneous bidirectional rings are not handled yet (RRV04 §6: light, heuristic and "
        "exact planners are not implemented in this version)",
        "--algorithm");
  }
  if (algorithm == "light" || algorithm == "light-enforced" || algorithm == "heuristic" ||
      algorithm == "exact") {
    throw InputError(fmt::format("algorithm '{}' is not available in this version", algorithm),
                     "--algorithm");
  }
  throw InputError(fmt::format("unknown algorithm '{}'", algorithm), "--algorithm");
}

}  // namespace redist::ring
