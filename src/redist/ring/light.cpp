#include "redist/ring/light.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/lp/lp_solver.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/heuristic.hpp"
#include "redist/ring/limits.hpp"

namespace redist::ring {

namespace {

void require_bidirectional(const Instance& in, const char* name) {
  if (!in.bidirectional) {
    throw OptionError(fmt::format("algorithm '{}' applies to bidirectional rings only", name),
                      "algorithm");
  }
}

std::int64_t to_int64(Int128 v) {
  if (v > std::numeric_limits<std::int64_t>::max() || v < std::numeric_limits<std::int64_t>::min())
    throw std::overflow_error("flow out of the 64-bit range");
  return static_cast<std::int64_t>(v);
}

std::vector<std::int64_t> flows_for(const std::vector<std::int64_t>& prefix, Int128 x) {
  std::vector<std::int64_t> flows(prefix.size());
  for (std::size_t i = 0; i < prefix.size(); ++i) flows[i] = to_int64(x + prefix[i]);
  return flows;
}

// The light x = flows[n-1]: processor i sends max(x + prefix[i], 0) + max(-(x + prefix[i-1]), 0)
// items, at most L_i iff -prefix[i-1] - L_i <= x <= -prefix[i] + L_i. Empty when lo > hi.
struct Interval {
  Int128 lo, hi;
  bool empty() const { return lo > hi; }
  Int128 clamp(Int128 x) const { return std::clamp(x, lo, hi); }
};

Interval light_interval(const Instance& in, const std::vector<std::int64_t>& prefix) {
  Interval r{std::numeric_limits<Int128>::min(), std::numeric_limits<Int128>::max()};
  for (std::size_t i = 0; i < in.size(); ++i) {
    r.lo = std::max(r.lo, -static_cast<Int128>(prefix[in.pred(i)]) - in.loads[i]);
    r.hi = std::min(r.hi, -static_cast<Int128>(prefix[i]) + in.loads[i]);
  }
  return r;
}

System6Solution solution_at(const Instance& in, const std::vector<std::int64_t>& prefix, Int128 x) {
  System6Solution s;
  s.flows = flows_for(prefix, x);
  s.tau = system6_time(in, s.flows);
  return s;
}

// Rational optimum of System 6 (or 12 when `light`) by the LP solver; returns R = the net flow
// over link n-1, or std::nullopt when the LP is infeasible.
std::optional<long double> lp_net_flow(const Instance& in, bool light) {
  const std::size_t n = in.size();
  if (n > kMaxLpProcessors) {
    throw OptionError(
        fmt::format("the lp solver handles rings of at most {} processors, this one has "
                    "{}; use the fast solver (exact, the same optimum)",
                    kMaxLpProcessors, n),
        "solver");
  }
  // The costs divided by the largest one (the optimal flows do not change): coefficients in
  // (0, 1], whatever the unit of the costs.
  double largest = 0;
  for (std::size_t i = 0; i < n; ++i)
    largest = std::max({largest, in.cost_next[i], in.cost_prev[i]});
  const auto next_cost = [&](std::size_t i) { return in.cost_next[i] / largest; };
  const auto prev_cost = [&](std::size_t i) { return in.cost_prev[i] / largest; };
  lp::Model m;
  std::vector<int> next(n), prev(n);
  for (std::size_t i = 0; i < n; ++i) next[i] = m.add_variable(0, lp::kInfinity);  // S_{i,i+1}
  for (std::size_t i = 0; i < n; ++i) prev[i] = m.add_variable(0, lp::kInfinity);  // S_{i,i-1}
  const int tau = m.add_variable(0, lp::kInfinity, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s = in.succ(i), p = in.pred(i);
    const auto delta = static_cast<double>(in.imbalance(i));
    m.add_row(delta, {{next[i], 1}, {prev[i], 1}, {prev[s], -1}, {next[p], -1}}, delta);
    m.add_row(-lp::kInfinity, {{next[i], next_cost(i)}, {prev[i], prev_cost(i)}, {tau, -1}}, 0);
    m.add_row(-lp::kInfinity, {{prev[s], prev_cost(s)}, {next[p], next_cost(p)}, {tau, -1}}, 0);
    if (light) {
      m.add_row(-lp::kInfinity, {{next[i], 1}, {prev[i], 1}}, static_cast<double>(in.loads[i]));
    }
  }
  const lp::Result r = lp::make_default_lp_solver()->solve(m);
  if (r.status == lp::Status::infeasible) return std::nullopt;
  if (r.status != lp::Status::optimal) {
    throw OptionError(fmt::format("the LP solver failed on System {} of this instance ({}); use "
                                  "the fast solver (exact, no LP)",
                                  light ? 12 : 6, lp::to_string(r.status)),
                      "solver");
  }
  return static_cast<long double>(r.values[next[n - 1]]) - r.values[prev[0]];
}

// Proposition 1: the better of floor(R) and ceil(R), each clamped to `allowed` and to the
// breakpoints of tau (the optimum lies between the smallest and the largest -prefix[i]), so that
// even a wild R from a failing solver stays a valid flow.
System6Solution round_lp(const Instance& in, const std::vector<std::int64_t>& prefix, long double r,
                         const Interval& allowed) {
  const auto [pmin, pmax] = std::minmax_element(prefix.begin(), prefix.end());
  const Int128 lo = std::max<Int128>(allowed.lo, -static_cast<Int128>(*pmax));
  const Int128 hi = std::min<Int128>(allowed.hi, -static_cast<Int128>(*pmin));
  const Interval range = lo <= hi ? Interval{lo, hi} : Interval{allowed.lo, allowed.hi};
  if (!std::isfinite(r)) r = 0;
  r = std::clamp(r, static_cast<long double>(range.lo), static_cast<long double>(range.hi));
  const long double nearest = std::nearbyint(r);
  if (std::abs(r - nearest) <= kLpTolerance * std::max(1.0L, std::abs(r))) r = nearest;
  System6Solution best;
  bool first = true;
  for (long double c : {std::floor(r), std::ceil(r)}) {
    const Int128 x = range.clamp(static_cast<Int128>(c));
    System6Solution s = solution_at(in, prefix, x);
    if (first || s.tau < best.tau) best = std::move(s);
    first = false;
  }
  return best;
}

// The LP answer, checked against the exact one: with counts near 2^62 or costs many orders of
// magnitude apart the solver's round-off can move R far from the optimum, and its tau would then
// be no lower bound. Refused (OptionError at "solver") rather than reported as one.
System6Solution checked_lp(System6Solution lp, const System6Solution& exact, int system) {
  if (!at_most(lp.tau, exact.tau)) {
    throw OptionError(fmt::format("the LP solver's optimum of System {} ({}) is above the exact "
                                  "one ({}): round-off on numbers this large or this far apart; "
                                  "use the fast solver (exact, no LP)",
                                  system, lp.tau, exact.tau),
                      "solver");
  }
  return lp;
}

// Farthest x from `from` towards `to` (inclusive) with tau(x) within `limit`, assuming tau(from)
// is (tau convex: the set is an interval). O(n log |to - from|).
Int128 walk_optimal(const Instance& in, const std::vector<std::int64_t>& prefix, Int128 from,
                    Int128 to, double limit) {
  // solution_at(x).tau, without building the flows: the evaluator gives the same time, and
  // solution_at is still called (to refuse the flows) when one leaves 64 bits.
  detail::System6Tau tau(in, prefix);
  const auto extremes = std::minmax_element(prefix.begin(), prefix.end());
  const std::int64_t low = *extremes.first, high = *extremes.second;
  auto fits = [&](Int128 x) {
    return x + low >= std::numeric_limits<std::int64_t>::min() &&
           x + high <= std::numeric_limits<std::int64_t>::max();
  };
  auto ok = [&](Int128 x) {
    const double t = fits(x) ? static_cast<double>(tau(x)) : solution_at(in, prefix, x).tau;
    return at_most(t, limit, kSearchResolution);
  };
  if (ok(to)) return to;
  Int128 good = from, bad = to;
  while (good - bad > 1 || bad - good > 1) {
    const Int128 mid = good + (bad - good) / 2;
    (ok(mid) ? good : bad) = mid;
  }
  return good;
}

// System 6 by the LP solver and Proposition 1's rounding, checked against `exact`, the integer
// optimum (system6_integer_optimum).
System6Solution lp_optimum(const Instance& in, const System6Solution& exact) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  require_bidirectional(in, "light");
  const std::optional<long double> r = lp_net_flow(in, /*light=*/false);
  if (!r) {
    throw OptionError(
        "the LP solver found System 6 infeasible, which it is not (round-off on "
        "these numbers); use the fast solver (exact, no LP)",
        "solver");
  }
  const Interval all{std::numeric_limits<Int128>::min(), std::numeric_limits<Int128>::max()};
  return checked_lp(round_lp(in, prefix, *r, all), exact, 6);
}

// The System 6 optimum of the chosen solver; `exact` is system6_integer_optimum(in), computed once
// by the caller and shared with System 12 and the heuristic.
System6Solution system6_optimum(const Instance& in, Solver solver, const System6Solution& exact) {
  return solver == Solver::lp ? lp_optimum(in, exact) : exact;
}

// system12_integer_optimum, given `exact` = system6_integer_optimum(in).
std::optional<System6Solution> system12_optimum(const Instance& in, Solver solver,
                                                const System6Solution& exact) {
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const Interval light = light_interval(in, prefix);
  if (light.empty()) return std::nullopt;
  const System6Solution clamped = solution_at(in, prefix, light.clamp(exact.flows[in.size() - 1]));
  if (solver == Solver::fast) return clamped;
  const std::optional<long double> r = lp_net_flow(in, /*light=*/true);
  // No LP answer cannot happen in exact arithmetic (the interval is not empty): trust the exact
  // one.
  if (!r) return clamped;
  return checked_lp(round_lp(in, prefix, *r, light), clamped, 12);
}

Schedule light_schedule(const Instance& in, const System6Solution& flows, double tau6,
                        const char* name) {
  Schedule s;
  s.algorithm = name;
  s.flows = flows.flows;
  s.transfers = lemma9_schedule(in, s.flows);
  s.makespan = schedule_makespan(in, s.transfers);
  s.lower_bound = tau6;
  s.light = true;
  // The claim rests on the schedule itself.
  if (at_most(s.makespan, tau6)) s.prove_optimal(Proof::lower_bound);
  return s;
}

// What `auto` does when no optimal flow is light: the shorter of `heuristic` and, when a light
// flow exists, the light-enforced schedule; "light": false, and the note says why.
Schedule fallback_schedule(const Instance& in, const System6Solution& exact,
                           const std::optional<System6Solution>& enforced, double tau6,
                           std::string note) {
  Schedule s = detail::plan_heuristic(in, HeuristicOptions{}, exact);
  if (enforced) {
    Schedule e = light_schedule(in, *enforced, tau6, "light-enforced");
    if (e.makespan < s.makespan) s = std::move(e);
  }
  s.light = false;
  s.notes.insert(s.notes.begin(), std::move(note));
  return s;
}

// The System 6 optimum preferred for scheduling: light if some optimal flow is light, else the
// optimal flow closest to the light interval (or the smallest optimal x when it is empty), so that
// the choice does not depend on which optimal x the solver returned.
System6Solution preferred_optimum(const Instance& in, const std::vector<std::int64_t>& prefix,
                                  const System6Solution& opt, const Interval& light) {
  const Int128 x0 = opt.flows[in.size() - 1];
  Int128 target;
  if (light.empty()) {
    target = -static_cast<Int128>(*std::max_element(prefix.begin(), prefix.end()));
  } else {
    target = light.clamp(x0);
  }
  return solution_at(in, prefix, walk_optimal(in, prefix, x0, target, opt.tau));
}

}  // namespace

bool is_light(const Instance& in, const std::vector<std::int64_t>& flows) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Int128 sends = static_cast<Int128>(std::max<std::int64_t>(flows[i], 0)) +
                         std::max<Int128>(-static_cast<Int128>(flows[in.pred(i)]), 0);
    if (sends > in.loads[i]) return false;
  }
  return true;
}

std::vector<Run> lemma9_schedule(const Instance& in, const std::vector<std::int64_t>& flows) {
  const std::size_t n = in.size();
  auto to_next = [&](std::size_t i) { return std::max<std::int64_t>(flows[i], 0); };
  auto to_prev = [&](std::size_t i) { return std::max<std::int64_t>(-flows[in.pred(i)], 0); };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < n; ++i) {
    if (to_next(i) > 0)
      runs.push_back(Run{static_cast<std::int64_t>(i), Direction::next, 0.0, to_next(i), 0.0});
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (to_prev(i) == 0) continue;
    // P_i's send port is free after its run to succ(i); pred(i)'s receive port after the run
    // from pred(pred(i)) to pred(i).
    const std::size_t pp = in.pred(in.pred(i));
    const double start = std::max(static_cast<double>(to_next(i)) * in.cost_next[i],
                                  static_cast<double>(to_next(pp)) * in.cost_next[pp]);
    runs.push_back(Run{static_cast<std::int64_t>(i), Direction::prev, start, to_prev(i), 0.0});
  }
  return runs;
}

System6Solution system6_lp_optimum(const Instance& in) {
  require_bidirectional(in, "light");
  return lp_optimum(in, system6_integer_optimum(in));
}

std::optional<System6Solution> system12_integer_optimum(const Instance& in, Solver solver) {
  require_bidirectional(in, "light-enforced");
  return system12_optimum(in, solver, system6_integer_optimum(in));
}

Schedule plan_light(const Instance& in, Solver solver) {
  require_bidirectional(in, "light");
  const std::vector<std::int64_t> prefix = prefix_imbalances(in);
  const System6Solution exact = system6_integer_optimum(in);
  const System6Solution opt = system6_optimum(in, solver, exact);
  const Interval light = light_interval(in, prefix);
  const System6Solution chosen = preferred_optimum(in, prefix, opt, light);
  if (is_light(in, chosen.flows)) return light_schedule(in, chosen, opt.tau, "light");
  return fallback_schedule(
      in, exact, system12_optimum(in, solver, exact), opt.tau,
      "no optimal System 6 flow is light (some processor must forward items it does not hold), "
      "so Lemma 9 does not apply: the better of heuristic and light-enforced is used");
}

Schedule plan_light_enforced(const Instance& in, Solver solver) {
  require_bidirectional(in, "light-enforced");
  const System6Solution exact = system6_integer_optimum(in);
  const System6Solution opt = system6_optimum(in, solver, exact);
  if (const std::optional<System6Solution> s12 = system12_optimum(in, solver, exact)) {
    return light_schedule(in, *s12, opt.tau, "light-enforced");
  }
  return fallback_schedule(in, exact, std::nullopt, opt.tau,
                           "no light flow exists (System 12 is infeasible): heuristic is used");
}

}  // namespace redist::ring
