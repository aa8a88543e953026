#include "redist/star/planner.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/star/bba.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/rbsa.hpp"
#include "redist/star/validate.hpp"

namespace redist::star {

namespace {

double count_by(const Instance& in, double M) {
  double total = 0;
  for (double w : in.w) total += std::floor(M / w);
  return total;
}

}  // namespace

double computation_lower_bound(const Instance& in) {
  double tasks = 0;
  for (std::int64_t l : in.loads) tasks += static_cast<double>(l);
  if (tasks == 0) return 0;
  // count_by(hi) >= tasks: every worker can compute its own load by max_i L_i w_i (finite by
  // validate_instance, unlike tasks * min w, which may overflow).
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < in.workers(); ++i) {
    hi = std::max(hi, static_cast<double>(in.loads[i]) * in.w[i]);
  }
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = lo + (hi - lo) / 2;
    (count_by(in, mid) >= tasks ? hi : lo) = mid;
  }
  // The bound is a grid point k * w_i in (lo, hi]: the largest one <= hi.
  double bound = 0;
  for (double w : in.w) bound = std::max(bound, std::floor(hi / w) * w);
  return std::min(bound, hi);
}

Schedule plan_star(const Instance& in, const std::string& algorithm) {
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;  // validate_instance: total <= 2^53
  if (total > kMaxPlannedTasks) {
    throw InputError(fmt::format("{} tasks in total, more than {}: too many to plan task by task "
                                 "(one transfer per moved task); group tasks into larger ones",
                                 total, kMaxPlannedTasks),
                     "loads");
  }
  Schedule s;
  if (algorithm == "bba") {
    s = plan_bba(in);
    if (homogeneous_links(in) && homogeneous_computation(in)) s.optimal = true;
  } else if (algorithm == "mbbsa") {
    s = plan_mbbsa(in);
  } else if (algorithm == "rbsa") {
    if (total > kMaxRbsaTasks) {
      throw InputError(fmt::format("R-BSA plans at most {} tasks in total (it places every task at "
                                   "each bisection step); use algorithm bba or mbbsa",
                                   kMaxRbsaTasks),
                       "loads");
    }
    s = plan_rbsa(in);
  } else if (algorithm == "exact") {
    return plan_exact(in);
  } else if (algorithm == "best") {
    bool have = false;
    std::vector<std::string> notes;
    for (const char* name : {"bba", "mbbsa", "rbsa"}) {
      if (have && s.optimal.value_or(false)) {
        // A later algorithm replaces s only when strictly better: impossible once s is proven
        // optimal (makespan = lower bound, or a theorem).
        notes.push_back(std::string(name) + " not run: " + s.algorithm + " is proven optimal");
        continue;
      }
      Schedule candidate;
      try {
        candidate = plan_star(in, name);
      } catch (const InputError& e) {
        notes.push_back(std::string(name) + " skipped: " + e.message());
        continue;
      }
      if (!validate_schedule(in, candidate).valid) {
        notes.push_back(std::string(name) + " skipped: invalid schedule");  // never expected
        continue;
      }
      if (!have || candidate.makespan < s.makespan) s = std::move(candidate), have = true;
    }
    s.notes = std::move(notes);
    s.notes.push_back("best of bba, mbbsa, rbsa: " + s.algorithm);
    return s;
  } else {
    throw OptionError(
        "unknown algorithm '" + algorithm + "' (expected bba, mbbsa, rbsa, exact or best)",
        "algorithm");
  }
  const double bound = computation_lower_bound(in);
  s.lower_bound = std::max(bound, s.optimal.value_or(false) ? s.makespan : 0.0);
  if (s.makespan <= *s.lower_bound * (1 + 1e-12)) s.optimal = true;
  if (!s.optimal) s.optimal = false;
  return s;
}

}  // namespace redist::star
