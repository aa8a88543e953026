#include "redist/ring/planner.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/exact.hpp"
#include "redist/ring/heuristic.hpp"
#include "redist/ring/light.hpp"
#include "redist/ring/unidirectional.hpp"
#include "redist/ring/validate.hpp"

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

// RRV04 §6: light when an optimal flow is light (optimal, Lemma 9), else the better of heuristic
// and light-enforced (plan_light's fallback); and the proven optimum when the ring is small.
Schedule plan_heterogeneous_bidirectional(const Instance& in, Solver solver) {
  Schedule s = plan_light(in, solver);
  if (s.optimal.value_or(false)) return s;
  if (std::optional<Schedule> exact = try_plan_exact(in)) {
    if (exact->makespan < s.makespan * (1 - 1e-12)) {
      exact->light = s.light;
      return *exact;
    }
    s.optimal = true;  // exact proved that nothing is shorter
    s.lower_bound = std::max(s.lower_bound.value_or(0.0), exact->makespan);  // the proven optimum
    s.notes.push_back("exact search proved this makespan optimal");
  }
  return s;
}

}  // namespace

namespace {

// Homogeneous bidirectional rings: Algorithm 3 when it is within its round limit (optimal under
// the paper's assumptions; when zero loads or targets defeat its guarantee, the better of it and
// the heterogeneous path). Beyond the limit, the heterogeneous path, whose lower bound is raised
// to the Lemma 6 bound (valid on every homogeneous ring) so that `optimal` can still be proven.
Schedule plan_homogeneous_bidirectional(const Instance& in, Solver solver) {
  if (bidirectional_homogeneous_applies(in)) {
    Schedule s = plan_bidirectional_homogeneous(in);
    if (s.optimal.value_or(false)) return s;
    Schedule general = plan_heterogeneous_bidirectional(in, solver);
    return general.makespan < s.makespan ? general : s;
  }
  Schedule s = plan_heterogeneous_bidirectional(in, solver);
  const double lemma6 = lemma6_bound(in);
  if (lemma6 > s.lower_bound.value_or(0.0)) {
    s.lower_bound = lemma6;
    s.optimal = s.makespan <= lemma6 * (1 + 1e-9);
  }
  s.notes.push_back(fmt::format(
      "Algorithm 3 would take {} rounds x ({} processors + {}), beyond its limit of {} steps: "
      "planned as a heterogeneous ring, lower bound raised to Lemma 6's",
      algorithm3_rounds(in), in.size(), kAlgorithm3RoundOverhead,
      kBidirectionalHomogeneousMaxSteps));
  return s;
}

// `auto` (the best of the other algorithms that applies); defined for every valid ring.
Schedule plan_auto(const Instance& in, Solver solver) {
  if (!in.bidirectional) return plan_unidirectional(in);
  if (in.homogeneous()) return plan_homogeneous_bidirectional(in, solver);
  return plan_heterogeneous_bidirectional(in, solver);
}

Schedule dispatch(const Instance& in, std::string_view algorithm, Solver solver) {
  if (algorithm == "unidirectional") return plan_unidirectional(in);
  if (algorithm == "bidirectional-homogeneous") return plan_bidirectional_homogeneous(in);
  if (algorithm == "light") return plan_light(in, solver);
  if (algorithm == "light-enforced") return plan_light_enforced(in, solver);
  if (algorithm == "heuristic") return plan_heuristic(in);
  if (algorithm == "exact") return plan_exact(in);
  if (algorithm == "auto") return plan_auto(in, solver);
  throw OptionError(fmt::format("unknown algorithm '{}' (expected one of: {})", one_line(algorithm),
                                fmt::join(ring_algorithm_names(), ", ")),
                    "algorithm");
}

// Last line of defence: a planner's schedule that the validator rejects is never printed. The only
// known cause is times beyond 2^53 item costs (counts near 2^62), where single items cannot be
// timed in doubles; the input is then refused.
void require_valid_at_double_precision(const Instance& in, const Schedule& s) {
  const ValidationResult v = validate_schedule(in, s);
  if (v.valid) return;
  throw InputError(fmt::format("the {} schedule is not valid at double precision ({}): with "
                               "counts this large single items cannot be timed; scale the "
                               "counts down or try another algorithm",
                               s.algorithm, v.reason),
                   "loads");
}

}  // namespace

Schedule plan_ring(const Instance& in, std::string_view algorithm, Solver solver) {
  validate_instance(in);
  require_finite_times(in);
  Schedule s = dispatch(in, algorithm, solver);
  require_valid_at_double_precision(in, s);
  // One order for every planner's output: by sender, then start time (docs/formats.md).
  std::stable_sort(s.transfers.begin(), s.transfers.end(), [](const Run& a, const Run& b) {
    return a.from != b.from ? a.from < b.from : a.start < b.start;
  });
  return s;
}

}  // namespace redist::ring
