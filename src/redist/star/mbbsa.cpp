#include "redist/star/mbbsa.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "redist/common/tolerance.hpp"
#include "redist/star/deadline_phases.hpp"

namespace redist::star {

namespace {

struct Plan {
  SenderPhase phase;
  std::vector<std::size_t> receivers;  // receiver of the k-th forward
};

// The real makespan of a plan, without building its transfers (same arithmetic as
// finish_times: forwards end in increasing order, so each receiver's arrivals are sorted).
double plan_makespan(const Instance& in, const Plan& plan) {
  const std::size_t m = in.workers();
  std::vector<double> end(m);
  for (std::size_t i = 0; i < m; ++i) {
    end[i] = static_cast<double>(in.loads[i] - plan.phase.send_count[i]) * in.w[i];
  }
  double master_out = 0;
  for (std::size_t k = 0; k < plan.receivers.size(); ++k) {
    const std::size_t r = plan.receivers[k];
    const double b = std::max(plan.phase.arrival[k], master_out);
    master_out = b + in.c[r];
    end[r] = std::max(end[r], master_out) + in.w[r];
  }
  return *std::max_element(end.begin(), end.end());
}

std::optional<Plan> decide(const Instance& in, double M, bool strict, MooreStep step,
                           MbbsaWork* work = nullptr) {
  Plan plan;
  plan.phase = sender_phase(in, M, strict);
  if (!plan.phase.ok) return std::nullopt;
  const bool ok = step == MooreStep::paper
                      ? paper_receivers(in, plan.phase, M, strict, plan.receivers, work)
                      : lazy_receivers(in, plan.phase, M, strict, plan.receivers, work);
  if (!ok) return std::nullopt;
  return plan;
}

// Homogeneous links, decision only (no plan): the same answer as decide() without ordering the
// deadlines. With rank(d) the largest j such that the j-th forward (arriving at (j + 1) c) meets
// d, and A(R) the number of deadlines of rank > R, the L_send largest deadlines are all those of
// rank > R* plus L_send - A(R*) of rank R*, R* the least R with A(R) < L_send; they can all be met
// iff, in rank order, at most R of them have rank <= R for every R < L_send: a histogram over the
// ranks below L_send (at most L_send deadlines are enumerated). O(m log(M / c) + L_send).
bool feasible_homogeneous(const Instance& in, double M, bool strict) {
  const SenderPhase p = sender_phase(in, M, strict);
  if (!p.ok) return false;
  const std::int64_t need = p.total;
  if (need == 0) return true;
  const double c = in.c.front();
  auto rank = [&](double d) -> std::int64_t {
    const double r = strict ? std::ceil(d / c) - 2 : std::floor(d / c) - 1;
    return r < -1 ? -1 : r > static_cast<double>(need) ? need : static_cast<std::int64_t>(r);
  };
  std::vector<std::int64_t> cap(in.workers(), 0);
  std::int64_t total = 0;
  for (std::size_t r : p.receivers) {
    cap[r] = receiver_capacity(in, r, M, strict, need);
    total += cap[r];
  }
  if (total < need) return false;
  // Deadlines of receiver r with rank > R: k = 1 .. count(r, R) (rank decreases with k).
  auto count = [&](std::size_t r, std::int64_t R) -> std::int64_t {
    if (R >= need) return 0;  // ranks are clamped to need
    const double estimate = std::floor((M - static_cast<double>(R + 2) * c) / in.w[r]);
    std::int64_t k = estimate <= 0 ? 0
                     : estimate >= static_cast<double>(cap[r])
                         ? cap[r]
                         : static_cast<std::int64_t>(estimate);
    while (k > 0 && rank(M - static_cast<double>(k) * in.w[r]) <= R) --k;
    while (k < cap[r] && rank(M - static_cast<double>(k + 1) * in.w[r]) > R) ++k;
    return k;
  };
  auto A = [&](std::int64_t R) {
    std::int64_t a = 0;
    for (std::size_t r : p.receivers) a += count(r, R);
    return a;
  };
  // R* in [-2, need]: A(-2) = total >= need, A(need) = 0 < need.
  std::int64_t lo = -2, hi = need;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (A(mid) < need ? hi : lo) = mid;
  }
  const std::int64_t R = hi;
  if (R <= 0) return false;  // some chosen deadline cannot even take the first forward
  std::vector<std::int64_t> histogram(static_cast<std::size_t>(need) + 1, 0);
  histogram[static_cast<std::size_t>(R)] = need - A(R);
  for (std::size_t r : p.receivers) {
    const std::int64_t above = count(r, R);
    for (std::int64_t k = above; k >= 1; --k) {
      const std::int64_t q = rank(M - static_cast<double>(k) * in.w[r]);
      if (q >= need) break;  // smaller k: larger deadlines, ranks >= need never violate
      ++histogram[static_cast<std::size_t>(q)];
    }
  }
  std::int64_t cumulative = 0;
  for (std::int64_t q = R; q < need; ++q) {
    cumulative += histogram[static_cast<std::size_t>(q)];
    if (cumulative > q) return false;
  }
  return true;
}

const char* algorithm_name(MooreStep step) {
  return step == MooreStep::paper ? "mbbsa" : "mbbsa-lazy";
}

Schedule build(const Instance& in, const Plan& plan, MooreStep step) {
  return build_forward_schedule(in, plan.phase, plan.receivers, algorithm_name(step));
}

// Homogeneous links: bisection on the decision alone, then one plan at the upper end, kept when
// its real makespan improves on `best_makespan`.
void bisect_homogeneous(const Instance& in, MooreStep step, std::optional<Plan>& best,
                        double& best_makespan) {
  double lo = 0, hi = best_makespan;
  for (int iteration = 0; iteration < 200 && hi - lo > kTimeTolerance * hi; ++iteration) {
    const double mid = lo + (hi - lo) / 2;
    (feasible_homogeneous(in, mid, false) ? hi : lo) = mid;
  }
  if (auto plan = decide(in, hi, false, step)) {
    const double makespan = plan_makespan(in, *plan);
    if (makespan < best_makespan) best_makespan = makespan, best = std::move(plan);
  }
}

// Bisection deciding with plans (heterogeneous links; on homogeneous links a fallback that never
// runs on exact data): keeps the plan of least real makespan.
void bisect_with_plans(const Instance& in, MooreStep step, bool exact_theory,
                       std::optional<Plan>& best, double& best_makespan, MbbsaWork* work) {
  double lo = 0, hi = best_makespan;
  for (int iteration = 0; iteration < 200 && hi - lo > kTimeTolerance * hi; ++iteration) {
    const double mid = lo + (hi - lo) / 2;
    if (auto plan = decide(in, mid, false, step, work)) {
      const double makespan = plan_makespan(in, *plan);
      if (makespan < best_makespan) best_makespan = makespan, best = std::move(plan);
      hi = exact_theory ? std::min(mid, best_makespan) : mid;
    } else {
      lo = mid;
    }
  }
}

// Homogeneous links: proves that no schedule has a makespan < best_makespan (Theorem 3), adopting
// the strict test's schedule while it is better. False when rounding leaves it unproven.
bool prove_optimal(const Instance& in, MooreStep step, std::optional<Plan>& best,
                   double& best_makespan) {
  for (int round = 0; round < 1000; ++round) {
    auto plan = decide(in, best_makespan, /*strict=*/true, step);
    if (!plan) return true;
    const double makespan = plan_makespan(in, *plan);
    if (!(makespan < best_makespan)) return false;
    best_makespan = makespan;
    best = std::move(plan);
  }
  return false;
}

Schedule search(const Instance& in, MooreStep step, MbbsaWork* work) {
  const Schedule none = no_transfer_schedule(in, algorithm_name(step));
  if (none.makespan == 0) {
    Schedule s = none;
    s.prove_optimal(Proof::lower_bound);  // nothing to compute: 0 is the least makespan
    return s;
  }
  const bool exact_theory = homogeneous_links(in);
  std::optional<Plan> best;
  double best_makespan = none.makespan;
  if (exact_theory) bisect_homogeneous(in, step, best, best_makespan);
  if (!exact_theory || !best) bisect_with_plans(in, step, exact_theory, best, best_makespan, work);
  const bool proven = exact_theory && prove_optimal(in, step, best, best_makespan);
  Schedule s = best ? build(in, *best, step) : none;
  if (proven) s.prove_optimal(Proof::theorem);
  return s;
}

}  // namespace

std::optional<std::vector<std::size_t>> mbbsa_receivers(const Instance& in, double M, bool strict,
                                                        MooreStep step) {
  auto plan = decide(in, M, strict, step);
  if (!plan) return std::nullopt;
  return std::move(plan->receivers);
}

std::optional<Schedule> mbbsa_decide(const Instance& in, double M, bool strict, MooreStep step) {
  const auto plan = decide(in, M, strict, step);
  if (!plan) return std::nullopt;
  return build(in, *plan, step);
}

Schedule plan_mbbsa(const Instance& in, MbbsaWork* work) {
  return search(in, MooreStep::paper, work);
}

Schedule plan_mbbsa_lazy(const Instance& in, MbbsaWork* work) {
  return search(in, MooreStep::lazy, work);
}

}  // namespace redist::star
