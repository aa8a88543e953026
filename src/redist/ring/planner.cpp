#include "redist/ring/planner.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/exact.hpp"
#include "redist/ring/heuristic.hpp"
#include "redist/ring/light.hpp"
#include "redist/ring/unidirectional.hpp"
#include "redist/ring/validate.hpp"

namespace redist::ring {

const std::vector<AlgorithmName>& ring_algorithm_names() {
  static const std::vector<AlgorithmName> names = {
      {"auto", "the best of those below that apply to the ring (the default)"},
      {"unidirectional", "RRV04 §3-4: optimal on unidirectional rings"},
      {"bidirectional-homogeneous",
       "RRV04 §5: optimal on bidirectional rings whose costs are all equal"},
      {"light", "RRV04 §6.1: optimal when an optimal flow is light"},
      {"light-enforced", "RRV04 §6.2: a light schedule whenever one exists"},
      {"heuristic", "chain schedules for any ring; the gap to the bound is reported"},
      {"exact", fmt::format("exhaustive search: proven optimum, up to {} processors and {} "
                            "moved items",
                            kExactMaxProcessors, kExactMaxItems)}};
  return names;
}

namespace {

// The limits of `exact`, with the plan's time limit.
ExactLimits exact_limits(const Deadline& time_limit) {
  ExactLimits limits;
  limits.time_limit = time_limit;
  return limits;
}

// RRV04 §6: light when an optimal flow is light (optimal, Lemma 9), else the better of heuristic
// and light-enforced (plan_light's fallback); and the proven optimum when the ring is small (or
// exact's best within its node and time limits, when shorter).
Schedule plan_heterogeneous_bidirectional(const Instance& in, Solver solver,
                                          const Deadline& time_limit) {
  Schedule s = plan_light(in, solver);
  if (s.optimal) return s;
  if (std::optional<Schedule> exact = try_plan_exact(in, exact_limits(time_limit))) {
    if (!at_most(s.makespan, exact->makespan, kSearchResolution)) {
      exact->light = s.light;
      return *exact;
    }
    if (!exact->optimal) {  // stopped by its node or time limit: nothing proven
      for (std::string& note : exact->notes) s.notes.push_back("exact: " + std::move(note));
      if (stopped_at_limit(exact->status)) s.stop_at(exact->status);
      return s;
    }
    // exact proved that nothing is shorter: its optimum is the bound.
    s.lower_bound = std::max(s.lower_bound.value_or(0.0), exact->makespan);
    s.bound_terms.push_back({"exact", exact->makespan});
    s.prove_optimal(Proof::search);
    s.notes.push_back("exact search proved this makespan optimal");
  }
  return s;
}

}  // namespace

namespace {

// Homogeneous bidirectional rings: Algorithm 3 when it is within its round limit (optimal under
// the paper's assumptions; when zero loads or targets defeat its guarantee, the better of it and
// the heterogeneous path). Beyond the limit, the heterogeneous path, whose lower bound plan()
// raises to the Lemma 6 bound (valid on every homogeneous ring, one of bounds()).
Schedule plan_homogeneous_bidirectional(const Instance& in, Solver solver,
                                        const Deadline& time_limit) {
  if (bidirectional_homogeneous_applies(in)) {
    Schedule s = plan_bidirectional_homogeneous(in);
    if (s.optimal) return s;
    Schedule general = plan_heterogeneous_bidirectional(in, solver, time_limit);
    return general.makespan < s.makespan ? general : s;
  }
  Schedule s = plan_heterogeneous_bidirectional(in, solver, time_limit);
  s.notes.push_back(fmt::format(
      "Algorithm 3 would take {} rounds x ({} processors + {}), beyond its limit of {} steps: "
      "planned as a heterogeneous ring, lower bound raised to Lemma 6's",
      algorithm3_rounds(in), in.size(), kAlgorithm3RoundOverhead,
      kBidirectionalHomogeneousMaxSteps));
  return s;
}

// `auto` (the best of the other algorithms that applies); defined for every valid ring.
Schedule plan_auto(const Instance& in, Solver solver, const Deadline& time_limit) {
  if (!in.bidirectional) return plan_unidirectional(in);
  if (in.homogeneous()) return plan_homogeneous_bidirectional(in, solver, time_limit);
  return plan_heterogeneous_bidirectional(in, solver, time_limit);
}

Schedule dispatch(const Instance& in, std::string_view algorithm, Solver solver,
                  const Deadline& time_limit) {
  if (algorithm == "unidirectional") return plan_unidirectional(in);
  if (algorithm == "bidirectional-homogeneous") return plan_bidirectional_homogeneous(in);
  if (algorithm == "light") return plan_light(in, solver);
  if (algorithm == "light-enforced") return plan_light_enforced(in, solver);
  if (algorithm == "heuristic") return plan_heuristic(in);
  if (algorithm == "exact") return plan_exact(in, exact_limits(time_limit));
  if (algorithm == "auto") return plan_auto(in, solver, time_limit);
  std::vector<std::string> names;
  for (const auto& [name, description] : ring_algorithm_names()) names.push_back(name);
  throw OptionError(fmt::format("unknown algorithm '{}' (expected one of: {})", one_line(algorithm),
                                fmt::join(names, ", ")),
                    "algorithm");
}

// The bound terms of the instance's case (bounds()) come first, then those the algorithm proved
// (the exact optimum); lower_bound is the largest, and a makespan that meets it is optimal. A
// skipped term's note joins the schedule's.
void attach_bounds(const Instance& in, Schedule& s) {
  BoundReport report = bounds(in);
  for (BoundTerm& term : s.bound_terms) report.terms.push_back(std::move(term));
  for (std::string& note : report.notes) s.notes.push_back(std::move(note));
  s.bound_terms = std::move(report.terms);
  s.lower_bound = std::max(s.lower_bound.value_or(0.0), report.lower_bound);
  if (!s.optimal && at_most(s.makespan, *s.lower_bound)) s.prove_optimal(Proof::lower_bound);
}

// Last line of defence: a planner's schedule that the validator rejects is never printed. The only
// known cause is times beyond 2^53 item costs (counts near 2^62), where single items cannot be
// timed in doubles; the input is then refused.
void require_valid_at_double_precision(const Instance& in, const Schedule& s) {
  const CheckResult v = check(in, s);
  if (v.valid) return;
  throw InputError(fmt::format("the {} schedule is not valid at double precision ({}): with "
                               "counts this large single items cannot be timed; scale the "
                               "counts down or try another algorithm",
                               s.algorithm, v.reason),
                   "loads");
}

}  // namespace

Schedule plan(const Instance& in, const PlanOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const Deadline time_limit(options.time_limit);
  validate_instance(in);
  require_finite_times(in);
  Schedule s = dispatch(in, options.algorithm, options.solver, time_limit);
  if (options.time_limit && options.algorithm != "exact" && options.algorithm != "auto") {
    s.notes.push_back(time_limit_ignored(options.algorithm));
  }
  require_valid_at_double_precision(in, s);
  attach_bounds(in, s);
  // One order for every planner's output: by sender, then start time (docs/formats.md).
  std::stable_sort(s.transfers.begin(), s.transfers.end(), [](const Run& a, const Run& b) {
    return a.from != b.from ? a.from < b.from : a.start < b.start;
  });
  s.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return s;
}

}  // namespace redist::ring
