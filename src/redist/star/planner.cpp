#include "redist/star/planner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/star/bba.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/rbsa.hpp"
#include "redist/star/validate.hpp"

namespace redist::star {

namespace {

std::int64_t total_tasks(const Instance& in) {
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;  // validate_instance: total <= 2^53
  return total;
}

// lower_bound: star_lower_bound, or the makespan when a theorem proves it optimal; optimal by
// the bound when the makespan meets it.
void set_bound(const Instance& in, Schedule& s) {
  const double bound = star_lower_bound(in);
  if (at_most(s.makespan, bound, kSearchResolution)) s.prove_optimal(Proof::lower_bound);
  s.lower_bound = std::max(bound, s.optimal ? s.makespan : 0.0);
}

// One heuristic with its theorem and its bound, without exact.
Schedule plan_heuristic(const Instance& in, const std::string& name) {
  Schedule s;
  if (name == "bba") {
    s = plan_bba(in);
    if (homogeneous_links(in) && homogeneous_computation(in)) s.prove_optimal(Proof::theorem);
  } else if (name == "mbbsa") {
    s = plan_mbbsa(in);
  } else if (name == "mbbsa-lazy") {
    s = plan_mbbsa_lazy(in);
  } else {
    if (total_tasks(in) > kMaxRbsaTasks) {
      throw InputError(fmt::format("R-BSA plans at most {} tasks in total (it places every task at "
                                   "each bisection step); use algorithm bba or mbbsa",
                                   kMaxRbsaTasks),
                       "loads");
    }
    s = plan_rbsa(in);
  }
  set_bound(in, s);
  return s;
}

// The best valid schedule of bba, mbbsa and rbsa (ties: the earlier), with notes.
Schedule best_heuristic(const Instance& in, std::vector<std::string>& notes) {
  Schedule s;
  bool have = false;
  for (const char* name : {"bba", "mbbsa", "rbsa"}) {
    if (have && s.optimal) {
      // A later algorithm replaces s only when strictly better: impossible once s is proven
      // optimal (makespan = lower bound, or a theorem).
      notes.push_back(std::string(name) + " not run: " + s.algorithm + " is proven optimal");
      continue;
    }
    Schedule candidate;
    try {
      candidate = plan_heuristic(in, name);
    } catch (const InputError& e) {
      notes.push_back(std::string(name) + " skipped: " + e.message());
      continue;
    }
    if (!check(in, candidate).valid) {
      notes.push_back(std::string(name) + " skipped: invalid schedule");  // never expected
      continue;
    }
    if (!have || candidate.makespan < s.makespan) s = std::move(candidate), have = true;
  }
  return s;
}

// When exact accepts the instance and s is not proven optimal: exact from s within
// kBestExactNodes. Its proof makes s optimal; its bound (the optimum, when it finds better)
// raises s's lower bound; with `adopt`, a strictly better schedule of exact replaces s.
void run_exact(const Instance& in, Schedule& s, std::vector<std::string>& notes, bool adopt,
               const Deadline& time_limit) {
  if (s.optimal) return;
  if (!exact_accepts(in)) {
    if (adopt) {
      notes.push_back(
          fmt::format("exact not run (more than {} workers or {} tasks): optimality "
                      "not checked",
                      kExactMaxWorkers, kExactMaxTasks));
    }
    return;
  }
  Schedule e = plan_exact_from(in, s, kBestExactNodes, time_limit);
  const Status exact_status = e.status;
  notes.insert(notes.end(), e.notes.begin(), e.notes.end());
  if (e.makespan < s.makespan && adopt && check(in, e).valid) {
    s = std::move(e);
  } else if (e.makespan < s.makespan) {
    s.lower_bound = std::max(s.lower_bound.value_or(0.0), e.lower_bound.value_or(0.0));
    notes.push_back(fmt::format("exact finds a makespan of {}", e.makespan));
  } else {
    if (e.optimal) s.prove_optimal(e.proof);
    s.lower_bound =
        s.optimal ? s.makespan : std::max(s.lower_bound.value_or(0.0), e.lower_bound.value_or(0.0));
  }
  if (!s.optimal && stopped_at_limit(exact_status)) s.stop_at(exact_status);
  if (s.optimal) notes.push_back("optimality proven by exhaustive search (exact)");
}

Schedule plan_best(const Instance& in, const Deadline& time_limit) {
  std::vector<std::string> notes;
  Schedule s = best_heuristic(in, notes);
  if (s.optimal) notes.push_back("exact not run: " + s.algorithm + " is proven optimal");
  run_exact(in, s, notes, true, time_limit);
  s.notes = std::move(notes);
  s.notes.push_back("best of bba, mbbsa, rbsa, exact: " + s.algorithm);
  return s;
}

void require_plannable(const Instance& in) {
  const std::int64_t total = total_tasks(in);
  if (total > kMaxPlannedTasks) {
    throw InputError(fmt::format("{} tasks in total, more than {}: too many to plan task by task "
                                 "(one transfer per moved task); group tasks into larger ones",
                                 total, kMaxPlannedTasks),
                     "loads");
  }
}

// "bba, mbbsa, mbbsa-lazy, rbsa, exact or best": the names of algorithm_names() as the errors list
// them.
std::string expected_names() {
  const std::vector<AlgorithmName>& names = algorithm_names();
  std::string text;
  for (std::size_t k = 1; k < names.size(); ++k) {
    text += names[k].name + (k + 1 < names.size() ? ", " : " or ");
  }
  return text + names.front().name;
}

Schedule plan_by_name(const Instance& in, const std::string& algorithm,
                      const Deadline& time_limit) {
  if (algorithm == "exact") return plan_exact(in, kExactMaxNodes, time_limit);
  if (algorithm == "best") return plan_best(in, time_limit);
  if (algorithm != "bba" && algorithm != "mbbsa" && algorithm != "mbbsa-lazy" &&
      algorithm != "rbsa") {
    throw OptionError("unknown algorithm '" + algorithm + "' (expected " + expected_names() + ")",
                      "algorithm");
  }
  Schedule s = plan_heuristic(in, algorithm);
  std::vector<std::string> notes;
  run_exact(in, s, notes, false, time_limit);
  s.notes.insert(s.notes.end(), notes.begin(), notes.end());
  return s;
}

}  // namespace

const std::vector<AlgorithmName>& algorithm_names() {
  static const std::vector<AlgorithmName> names = {
      {"best",
       "the best of bba, mbbsa and rbsa, then exact when small: proven optimal when it can be "
       "(the default)"},
      {"bba", "STAR §3.3: optimal when all c and all w are equal"},
      {"mbbsa", "STAR §3.4: optimal on homogeneous links"},
      {"mbbsa-lazy",
       "mbbsa with Moore's scan stopped early (not STAR's algorithm; same decisions, other "
       "schedules on heterogeneous links; not part of best)"},
      {"rbsa", "STAR §3.5: a heuristic for heterogeneous links"},
      {"exact", fmt::format("branch and bound: proven optimum, up to {} workers and {} tasks",
                            kExactMaxWorkers, kExactMaxTasks)},
  };
  return names;
}

Schedule plan(const Instance& in, const PlanOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Deadline time_limit(options.time_limit);
  require_plannable(in);
  Schedule s = plan_by_name(in, options.algorithm, time_limit);
  s.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

}  // namespace redist::star
