#include "redist/ring/planner.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/exact.hpp"
#include "redist/ring/heuristic.hpp"
#include "redist/ring/light.hpp"
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

namespace {

// `exact` when the instance is within its limits, else std::nullopt.
std::optional<Schedule> exact_if_small(const Instance& in) {
  try {
    return plan_exact(in);
  } catch (const InputError&) {
    return std::nullopt;  // over exact's documented limits
  }
}

// RRV04 §6: light when an optimal flow is light (optimal, Lemma 9), else the better of heuristic
// and light-enforced (plan_light's fallback); and the proven optimum when the ring is small.
Schedule plan_heterogeneous_bidirectional(const Instance& in, Solver solver) {
  Schedule s = plan_light(in, solver);
  if (s.optimal.value_or(false)) return s;
  if (std::optional<Schedule> exact = exact_if_small(in)) {
    if (exact->makespan < s.makespan * (1 - 1e-12)) {
      exact->light = s.light;
      return *exact;
    }
    s.optimal = true;  // exact proved that nothing is shorter
    s.notes.push_back("exact search proved this makespan optimal");
  }
  return s;
}

}  // namespace

namespace {

Schedule dispatch(const Instance& in, std::string_view algorithm, Solver solver) {
  if (algorithm == "unidirectional") return plan_unidirectional(in);
  if (algorithm == "bidirectional-homogeneous") return plan_bidirectional_homogeneous(in);
  if (algorithm == "light") return plan_light(in, solver);
  if (algorithm == "light-enforced") return plan_light_enforced(in, solver);
  if (algorithm == "heuristic") return plan_heuristic(in);
  if (algorithm == "exact") return plan_exact(in);
  if (algorithm == "auto") {
    if (!in.bidirectional) return plan_unidirectional(in);
    if (in.homogeneous()) {
      Schedule s = plan_bidirectional_homogeneous(in);
      if (s.optimal.value_or(false)) return s;
      // Zero loads or targets defeated Algorithm 3's guarantee: try the general planners too.
      Schedule general = plan_heterogeneous_bidirectional(in, solver);
      return general.makespan < s.makespan ? general : s;
    }
    return plan_heterogeneous_bidirectional(in, solver);
  }
  throw InputError(fmt::format("unknown algorithm '{}' (expected one of: {})", algorithm,
                               fmt::join(ring_algorithm_names(), ", ")),
                   "--algorithm");
}

}  // namespace

Schedule plan_ring(const Instance& in, std::string_view algorithm, Solver solver) {
  Schedule s = dispatch(in, algorithm, solver);
  // One order for every planner's output: by sender, then start time (docs/formats.md).
  std::stable_sort(s.transfers.begin(), s.transfers.end(), [](const Run& a, const Run& b) {
    return a.from != b.from ? a.from < b.from : a.start < b.start;
  });
  return s;
}

}  // namespace redist::ring
