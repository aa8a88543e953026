#include "redist/star/mbbsa.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "redist/common/error.hpp"

#include "redist/common/tolerance.hpp"
#include "redist/star/deadline_phases.hpp"
#include "redist/star/moore.hpp"

namespace redist::star {

namespace {

struct Deadline {
  double deadline;
  std::size_t receiver;
};

// The L largest deadlines over all receivers, in non-decreasing order (k-way merge from the top).
std::vector<Deadline> largest_deadlines(const Instance& in, const SenderPhase& p, double M,
                                        bool strict) {
  const std::int64_t need = p.total;
  std::vector<std::int64_t> cap(in.workers(), 0);
  std::priority_queue<std::tuple<double, std::size_t, std::int64_t>> heap;  // (d, -?, k)
  for (std::size_t r : p.receivers) {
    cap[r] = receiver_capacity(in, r, M, strict, need);
    if (cap[r] > 0) heap.emplace(M - in.w[r], r, 1);
  }
  std::vector<Deadline> out;
  out.reserve(static_cast<std::size_t>(need));
  while (static_cast<std::int64_t>(out.size()) < need && !heap.empty()) {
    const auto [d, r, k] = heap.top();
    heap.pop();
    out.push_back({d, r});
    if (k < cap[r]) heap.emplace(M - static_cast<double>(k + 1) * in.w[r], r, k + 1);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

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

// Heterogeneous links: Moore's algorithm over every receiver's deadlines M - k w_r, by
// non-decreasing deadline (ties: lower receiver index). Per receiver only its latest
// min(L_send, floor((M - c_{s1}) / c_r) + 1) deadlines: no more of its receptions fit between
// the first arrival and M, and swapping a reception to a later deadline of the same receiver keeps
// a set on time, so the most on-time jobs is unchanged. The deadlines are merged lazily from the
// receivers' sorted lists and the scan stops once L_send jobs are on time, or once even taking
// every deadline left could not reach L_send (each adds at most one on-time job), so a decision
// costs O(J (log m + log k)) for the J deadlines scanned and k distinct c, not a sort of them all.
bool moore_receivers(const Instance& in, const SenderPhase& p, double M, bool strict,
                     std::vector<std::size_t>& receivers, MbbsaWork* work) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  // (deadline, receiver, k): receiver's k-th deadline from the end, smallest first.
  using Next = std::tuple<double, std::size_t, std::int64_t>;
  std::priority_queue<Next, std::vector<Next>, std::greater<Next>> heap;
  std::int64_t available = 0;
  for (std::size_t r : p.receivers) {
    const double fit = std::floor((M - p.arrival.front()) / in.c[r]) + 1;
    const std::int64_t limit = fit < static_cast<double>(p.total)
                                   ? std::max<std::int64_t>(0, static_cast<std::int64_t>(fit))
                                   : p.total;
    const std::int64_t cap = receiver_capacity(in, r, M, strict, limit);
    available += cap;
    if (cap > 0) heap.emplace(M - static_cast<double>(cap) * in.w[r], r, cap);
  }
  if (work) work->deadlines_available += available;
  MooreScan scan(p.arrival.front(), strict);
  std::vector<std::size_t> job_receiver;
  // Each job adds at most one on-time job: stop once even all the rest could not reach L_send.
  auto can_reach = [&] {
    const auto left = available - static_cast<std::int64_t>(job_receiver.size());
    return static_cast<std::int64_t>(scan.on_time()) + left >= p.total;
  };
  while (scan.on_time() < need && can_reach()) {
    const auto [deadline, r, k] = heap.top();
    heap.pop();
    if (static_cast<std::int64_t>(job_receiver.size()) >= kMaxMooreJobs) {
      throw InputError(fmt::format("MBBSA on heterogeneous links would scan more than {} "
                                   "deadlines per decision; use algorithm bba or rbsa",
                                   kMaxMooreJobs),
                       "");
    }
    scan.add({in.c[r], deadline});
    job_receiver.push_back(r);
    if (k > 1) heap.emplace(M - static_cast<double>(k - 1) * in.w[r], r, k - 1);
  }
  if (work) {
    ++work->decisions;
    work->deadlines_scanned += static_cast<std::int64_t>(job_receiver.size());
  }
  if (scan.on_time() < need) return false;
  for (std::size_t j : scan.chosen()) receivers.push_back(job_receiver[j]);
  return true;
}

std::optional<Plan> decide(const Instance& in, double M, bool strict, MbbsaWork* work = nullptr) {
  Plan plan;
  plan.phase = sender_phase(in, M, strict);
  const SenderPhase& p = plan.phase;
  if (!p.ok) return std::nullopt;
  if (p.total == 0) return plan;
  const std::size_t need = static_cast<std::size_t>(p.total);
  std::vector<std::size_t>& receivers = plan.receivers;
  receivers.reserve(need);
  if (homogeneous_links(in)) {
    const std::vector<Deadline> d = largest_deadlines(in, p, M, strict);
    if (d.size() < need) return std::nullopt;
    const double c = in.c.front();
    for (std::size_t j = 0; j < need; ++j) {
      // The (j+1)-th forward ends at (j + 2) c at the earliest (first arrival at c).
      const double arrival = static_cast<double>(j + 2) * c;
      if (strict ? arrival >= d[j].deadline : arrival > d[j].deadline) return std::nullopt;
      receivers.push_back(d[j].receiver);
    }
  } else if (!moore_receivers(in, p, M, strict, receivers, work)) {
    return std::nullopt;
  }
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

Schedule build(const Instance& in, const Plan& plan) {
  return build_forward_schedule(in, plan.phase, plan.receivers, "mbbsa");
}

}  // namespace

std::optional<Schedule> mbbsa_decide(const Instance& in, double M, bool strict) {
  const auto plan = decide(in, M, strict);
  if (!plan) return std::nullopt;
  return build(in, *plan);
}

Schedule plan_mbbsa(const Instance& in, MbbsaWork* work) {
  const Schedule none = no_transfer_schedule(in, "mbbsa");
  if (none.makespan == 0) {
    Schedule s = none;
    s.prove_optimal(Proof::lower_bound);  // nothing to compute: 0 is the least makespan
    return s;
  }
  const bool exact_theory = homogeneous_links(in);
  std::optional<Plan> best;
  double best_makespan = none.makespan;
  double lo = 0, hi = none.makespan;
  if (exact_theory) {
    // Bisection on the decision alone, then one plan at the upper end.
    for (int iteration = 0; iteration < 200 && hi - lo > kTimeTolerance * hi; ++iteration) {
      const double mid = lo + (hi - lo) / 2;
      (feasible_homogeneous(in, mid, false) ? hi : lo) = mid;
    }
    if (auto plan = decide(in, hi, false)) {
      const double makespan = plan_makespan(in, *plan);
      if (makespan < best_makespan) best_makespan = makespan, best = std::move(plan);
    }
    lo = 0;
    hi = best_makespan;
  }
  // Heterogeneous links (and, on homogeneous links, a fallback that never runs on exact data):
  // the upper end jumps to the real makespan of each plan found.
  if (!exact_theory || !best) {
    for (int iteration = 0; iteration < 200 && hi - lo > kTimeTolerance * hi; ++iteration) {
      const double mid = lo + (hi - lo) / 2;
      if (auto plan = decide(in, mid, false, work)) {
        const double makespan = plan_makespan(in, *plan);
        if (makespan < best_makespan) best_makespan = makespan, best = std::move(plan);
        hi = exact_theory ? std::min(mid, best_makespan) : mid;
      } else {
        lo = mid;
      }
    }
  }
  bool proven = false;
  if (exact_theory) {
    // Prove optimality: no schedule of makespan < best_makespan (Theorem 3).
    for (int round = 0; round < 1000; ++round) {
      auto plan = decide(in, best_makespan, /*strict=*/true);
      if (!plan) {
        proven = true;
        break;
      }
      const double makespan = plan_makespan(in, *plan);
      if (!(makespan < best_makespan)) break;  // rounding: leave `optimal` unset
      best_makespan = makespan;
      best = std::move(plan);
    }
  }
  Schedule s = best ? build(in, *best) : none;
  if (proven) s.prove_optimal(Proof::theorem);
  return s;
}

}  // namespace redist::star
