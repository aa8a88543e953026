#include "redist/dlt/planner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/dlt/validate.hpp"
#include "redist/lp/lp_solver.hpp"

namespace redist::dlt {

namespace {
// CLP works to absolute tolerances of about 1e-7: it cannot resolve b, s or alpha spread over
// more than this factor.
constexpr double kLpMaxSpread = 1e12;
// A rounding sliver of a delta, at most this fraction of the total load, whose rate would be a
// subnormal double is left out (deltas_at).
constexpr double kSliver = kTimeResolution;
}  // namespace

namespace {

double total_load(const Instance& in) {
  double total = 0;
  for (double a : in.alpha) total += a;
  return total;
}

// max(alpha_i - T s_i, -T b_i), and never below -sum alpha: with delta_j <= alpha_j no worker
// can receive more than the total load, so this keeps the feasible deltas and keeps the lower
// ends finite when T s_i and T b_i overflow.
double lower_end(const Instance& in, std::size_t i, double T, double total) {
  return std::max({in.alpha[i] - T * in.s[i], -T * in.b[i], -total});
}

// A worker sends at most what it holds: delta_i <= alpha_i besides (7a).
double upper_end(const Instance& in, std::size_t i, double T) {
  return std::min(T * in.b[i], in.alpha[i]);
}

// The deltas' sum is 0 only to rounding: the residual is moved onto the worker with the most
// room left in its box in the direction that cancels it (a sender keeping a sliver more, or a
// receiver taking it), rather than onto whichever transfer comes last.
// Returns false when no box has room enough (T is then a hair below what the deltas need).
bool absorb_rounding(const std::vector<double>& lo, const std::vector<double>& hi,
                     std::vector<double>& delta) {
  double residual = 0;
  for (double d : delta) residual += d;
  if (residual == 0) return true;
  std::size_t best = 0;
  double best_room = -1;
  for (std::size_t i = 0; i < delta.size(); ++i) {
    const double room = residual > 0 ? delta[i] - lo[i] : hi[i] - delta[i];
    if (room > best_room) best = i, best_room = room;
  }
  const double shift = std::min(std::abs(residual), std::max(best_room, 0.0));
  delta[best] += residual > 0 ? -shift : shift;
  return shift == std::abs(residual);
}

// Deltas inside the boxes at T summing to 0 (T feasible): one share of every box's room,
// measured from the lower ends (theta = -sum lo / room) or, when the deltas sit near the upper
// ends, from them (1 - theta = sum hi / room), so that a delta much smaller than its box is not
// the difference of two nearly equal numbers. Returns whether the rounding residual fit.
bool deltas_at(const Instance& in, double T, std::vector<double>& delta) {
  const std::size_t m = in.alpha.size();
  std::vector<double> lo(m), hi(m);
  delta.assign(m, 0.0);
  const double total = total_load(in);
  double sum_lo = 0, sum_hi = 0, room = 0;
  for (std::size_t i = 0; i < m; ++i) {
    // T >= alpha_i / (s_i + b_i) makes the box non-empty, but alpha_i - T s_i cancels when s_i
    // dwarfs b_i and may round above T b_i: the lower end is kept at most the upper end.
    hi[i] = upper_end(in, i, T);
    lo[i] = std::min(lower_end(in, i, T, total), hi[i]);
    sum_lo += lo[i];
    sum_hi += hi[i];
    room += hi[i] - lo[i];
  }
  const bool from_hi = sum_hi < -sum_lo;
  const double share = room > 0 ? std::clamp((from_hi ? sum_hi : -sum_lo) / room, 0.0, 1.0) : 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    delta[i] = from_hi ? hi[i] - share * (hi[i] - lo[i]) : lo[i] + share * (hi[i] - lo[i]);
    // A rounding sliver (kSliver of the total load at most) whose rate delta / T would be a
    // subnormal double is left out when the box allows it: its transfer could not be timed to
    // double precision. What it leaves of the sum is absorbed below.
    if (T > 0 && lo[i] <= 0 && 0 <= hi[i] && std::abs(delta[i]) <= kSliver * total &&
        std::abs(delta[i]) / T < std::numeric_limits<double>::min()) {
      delta[i] = 0;
    }
  }
  return absorb_rounding(lo, hi, delta);
}

// The solver's deltas moved into the boxes at T (CLP meets constraints only to its tolerance),
// then shifted towards the upper or lower ends, in proportion to the room left, to sum to 0.
std::vector<double> project_on_boxes(const Instance& in, double T, std::vector<double> delta) {
  const std::size_t m = delta.size();
  const double total = total_load(in);
  std::vector<double> lo(m), hi(m);
  double sum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    hi[i] = upper_end(in, i, T);
    lo[i] = std::min(lower_end(in, i, T, total), hi[i]);
    delta[i] = std::clamp(delta[i], lo[i], hi[i]);
    sum += delta[i];
  }
  double room = 0;
  for (std::size_t i = 0; i < m; ++i) room += sum > 0 ? delta[i] - lo[i] : hi[i] - delta[i];
  if (sum == 0 || room <= 0) return delta;
  const double share = std::min(1.0, std::abs(sum) / room);
  for (std::size_t i = 0; i < m; ++i) {
    delta[i] += sum > 0 ? -share * (delta[i] - lo[i]) : share * (hi[i] - delta[i]);
  }
  return delta;
}

// LP 7 through CLP on an instance already scaled; deltas not yet projected.
Schedule solve_scaled_lp(const Instance& in) {
  const std::size_t m = in.alpha.size();
  lp::Model model;
  const int T = model.add_variable(0, lp::kInfinity, 1.0);
  std::vector<int> d(m);
  // delta_i <= alpha_i: a worker sends at most the load it holds (LP 7 leaves it out; adding it
  // keeps the optimal T, since the boxes stay non-empty and their upper ends stay >= 0).
  for (std::size_t i = 0; i < m; ++i) d[i] = model.add_variable(-lp::kInfinity, in.alpha[i]);
  std::vector<lp::Model::Term> sum;
  for (std::size_t i = 0; i < m; ++i) {
    model.add_row(-lp::kInfinity, {{d[i], 1.0}, {T, -in.b[i]}}, 0.0);        // delta <= T b
    model.add_row(0.0, {{d[i], 1.0}, {T, in.b[i]}}, lp::kInfinity);          // -T b <= delta
    model.add_row(in.alpha[i], {{d[i], 1.0}, {T, in.s[i]}}, lp::kInfinity);  // 7b
    sum.push_back({d[i], 1.0});
  }
  model.add_row(0.0, sum, 0.0);  // 7c
  const lp::Result r = lp::make_default_lp_solver()->solve(model);
  if (r.status != lp::Status::optimal) {
    throw std::runtime_error(std::string("LP 7 not solved: ") + lp::to_string(r.status));
  }
  Schedule out;
  out.solver = Solver::lp;
  out.makespan = std::max(0.0, r.values[static_cast<std::size_t>(T)]);
  out.delta.resize(m);
  for (std::size_t i = 0; i < m; ++i) out.delta[i] = r.values[static_cast<std::size_t>(d[i])];
  return out;
}

}  // namespace

Schedule solve_fast(const Instance& in) {
  const std::size_t m = in.alpha.size();
  Schedule out;
  out.solver = Solver::fast;
  // g(T) = sum_i lo_i(T). lo_i(T) = alpha_i - T s_i while alpha_i >= T (s_i - b_i), that is
  // for ever when s_i <= b_i and up to the breakpoint t_i = alpha_i / (s_i - b_i) otherwise;
  // -T b_i beyond it.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> t(m);
  for (std::size_t i = 0; i < m; ++i) {
    t[i] = in.s[i] > in.b[i] ? in.alpha[i] / (in.s[i] - in.b[i]) : inf;
  }
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return t[x] < t[y]; });
  // On T in [t_(k-1), t_(k)]: workers order[k..] contribute alpha - T s, order[..k) contribute
  // -T b: g(T) = A - T B with A = sum of the alphas of order[k..], B = sum s (k..) + sum b (..k).
  // Suffix sums are built from the end and the prefix sum of b forward, by additions only (a
  // running B += b - s cancels catastrophically when s and b differ by orders of magnitude).
  std::vector<double> alpha_after(m + 1, 0.0), s_after(m + 1, 0.0);
  for (std::size_t k = m; k-- > 0;) {
    alpha_after[k] = alpha_after[k + 1] + in.alpha[order[k]];
    s_after[k] = s_after[k + 1] + in.s[order[k]];
  }
  double b_before = 0, T = 0, prev = 0;
  for (std::size_t k = 0; k <= m; ++k) {
    const double right = k < m ? t[order[k]] : inf;
    const double A = alpha_after[k], B = s_after[k] + b_before;
    // g is non-increasing: its least zero lies on this piece when g(right) = A - right B <= 0.
    // (Tested as A <= right B, not as A / B <= right: A / B may underflow to 0.)
    if (A <= 0 || A <= right * B) {
      T = A <= 0 ? prev : std::max(prev, A / B);
      break;
    }
    b_before += in.b[order[k]];
    prev = right;
  }
  // Every box non-empty: alpha_i - T s_i <= T b_i.
  for (std::size_t i = 0; i < m; ++i) T = std::max(T, in.alpha[i] / (in.s[i] + in.b[i]));
  // alpha_i - T s_i cancels when T s_i is close to alpha_i, so the T found may be a hair below
  // what the deltas need in floating point: T then grows by relative steps doubling from one
  // rounding unit, at most 2^-33 in all (far inside the kLpTolerance the solvers agree to).
  for (double step = std::numeric_limits<double>::epsilon(); !deltas_at(in, T, out.delta);
       step *= 2) {
    if (step > 0x1p-34) break;
    T *= 1 + step;
  }
  out.makespan = T;
  return out;
}

namespace {

// CLP works to absolute tolerances (about 1e-7): refuse ranges it cannot resolve, and scale the
// loads to a total of 1 and the rates to a largest of 1 (LP 7 is homogeneous in both, so the
// scaled optimum is the optimum, with T scaled by rate / load).
void require_lp_range(const Instance& in) {
  auto spread = [](const std::vector<double>& x, const std::vector<double>& y) {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const auto* v : {&x, &y}) {
      for (double e : *v) {
        if (e > 0) lo = std::min(lo, e), hi = std::max(hi, e);
      }
    }
    return hi > 0 ? hi / lo : 1.0;
  };
  if (spread(in.b, in.s) > kLpMaxSpread) {
    throw OptionError(
        "the LP solver needs every b and s within 10^12 of each other; use the "
        "fast solver",
        "solver");
  }
  if (spread(in.alpha, {}) > kLpMaxSpread) {
    throw OptionError(
        "the LP solver needs the non-zero alpha within 10^12 of each other; use "
        "the fast solver",
        "solver");
  }
}

}  // namespace

Schedule solve_lp(const Instance& in) {
  require_lp_range(in);
  const std::size_t m = in.alpha.size();
  const double load_unit = std::max(total_load(in), std::numeric_limits<double>::min());
  double rate_unit = 0;
  for (std::size_t i = 0; i < m; ++i) rate_unit = std::max({rate_unit, in.b[i], in.s[i]});
  Instance scaled = in;
  for (std::size_t i = 0; i < m; ++i) {
    scaled.alpha[i] /= load_unit;
    scaled.b[i] /= rate_unit;
    scaled.s[i] /= rate_unit;
  }
  Schedule out = solve_scaled_lp(scaled);
  out.makespan *= load_unit / rate_unit;
  for (double& d : out.delta) d *= load_unit;
  out.delta = project_on_boxes(in, out.makespan, std::move(out.delta));
  return out;
}

namespace {

std::int64_t worker(std::size_t i) { return static_cast<std::int64_t>(i); }

// `amount` from `from` to `to` at the constant rate that ends it at the makespan T (eq. 9).
Transfer transfer(std::size_t from, std::size_t to, double amount, double T) {
  return {worker(from), worker(to), amount, amount / T};
}

}  // namespace

Schedule solve(const Instance& in, Solver solver) {
  return solver == Solver::lp ? solve_lp(in) : solve_fast(in);
}

void add_transfers(Schedule& s) {
  s.transfers.clear();
  if (s.makespan <= 0) return;
  // North-west corner: senders and receivers in index order, each transfer exhausting the
  // current sender or the current receiver, so at most S + R - 1 transfers. The largest receiver
  // comes last, so that it is the one to take what rounding leaves over.
  std::vector<std::size_t> senders, receivers;
  for (std::size_t i = 0; i < s.delta.size(); ++i) {
    if (s.delta[i] > 0) senders.push_back(i);
    if (s.delta[i] < 0) receivers.push_back(i);
  }
  if (!receivers.empty()) {
    const auto largest =
        std::min_element(receivers.begin(), receivers.end(),
                         [&](std::size_t x, std::size_t y) { return s.delta[x] < s.delta[y]; });
    std::rotate(largest, largest + 1, receivers.end());
  }
  std::size_t a = 0, b = 0;
  double to_send = senders.empty() ? 0 : s.delta[senders[0]];
  double to_receive = receivers.empty() ? 0 : -s.delta[receivers[0]];
  while (a < senders.size() && b < receivers.size()) {
    const double amount = std::min(to_send, to_receive);
    if (amount > 0) s.transfers.push_back(transfer(senders[a], receivers[b], amount, s.makespan));
    to_send -= amount;
    to_receive -= amount;
    if (to_send <= to_receive) {
      if (++a < senders.size()) to_send = s.delta[senders[a]];
    } else if (++b < receivers.size()) {
      to_receive = -s.delta[receivers[b]];
    }
  }
  // The sums of the positive and of the negative deltas may differ by rounding: what senders
  // still hold then goes to the largest receiver (a sender that keeps a sliver of load it cannot
  // compute in time would be wrong; the largest receiver absorbs it within rounding). The
  // current sender's sliver joins its last transfer, which went to that receiver.
  if (receivers.empty()) return;
  const std::size_t largest = receivers.back();
  for (; a < senders.size(); ++a) {
    if (to_send > 0 && !s.transfers.empty() && s.transfers.back().from == worker(senders[a])) {
      Transfer& last = s.transfers.back();
      last.amount += to_send;
      last.rate = last.amount / s.makespan;
    } else if (to_send > 0) {
      s.transfers.push_back(transfer(senders[a], largest, to_send, s.makespan));
    }
    if (a + 1 < senders.size()) to_send = s.delta[senders[a + 1]];
  }
}

namespace {

// Every plan is re-checked by the independent validator before it is returned: when the values
// span more than double precision resolves (a worker whose sliver of rounding takes longer than
// the makespan to compute), the instance is refused rather than a wrong schedule returned.
void require_checked(const Instance& instance, const Schedule& schedule) {
  const CheckResult r = check(instance, schedule);
  if (!r.valid) {
    throw InputError(
        "the values span more than double precision resolves (the plan fails its "
        "check: " +
            r.reason + "); use b, s and alpha of closer magnitudes",
        "");
  }
}

// The schedule's own finish in floating point, from its transfers as the validator sums them:
// every worker's link busy with what it sends or receives at rate b_i, and its computation of
// what it keeps or receives. When a worker keeps a load so much smaller than alpha_i that its
// rounding shows in its computing time, or a receiver at its bandwidth takes a rounding sliver
// more, this exceeds T by that rounding; the makespan then becomes it and the rates are slowed
// to it.
void settle_makespan(const Instance& in, Schedule& s) {
  const std::size_t m = in.alpha.size();
  std::vector<double> sent(m, 0.0), received(m, 0.0);
  for (const Transfer& t : s.transfers) {
    sent[static_cast<std::size_t>(t.from)] += t.amount;
    received[static_cast<std::size_t>(t.to)] += t.amount;
  }
  double finish = s.makespan;
  for (std::size_t i = 0; i < m; ++i) {
    const double work = std::max(0.0, in.alpha[i] - sent[i] + received[i]);
    finish = std::max({finish, work / in.s[i], sent[i] / in.b[i], received[i] / in.b[i]});
  }
  if (finish <= s.makespan) return;
  s.makespan = finish;
  for (Transfer& t : s.transfers) t.rate = t.amount / finish;
}

// At most the solver's worker limit; InputError at "alpha" beyond.
void require_solver_size(const Instance& instance, Solver solver) {
  const std::size_t limit = solver == Solver::lp ? kMaxWorkersLp : kMaxWorkersFast;
  if (instance.workers() > limit) {
    throw InputError(
        fmt::format("{} workers, more than the {} solver takes ({}){}", instance.workers(),
                    to_string(solver), limit, solver == Solver::lp ? "; use the fast solver" : ""),
        "alpha");
  }
}

// Beyond kMaxRoundingCost the rounding is no longer a detail of the plan: refused.
void require_small_rounding(const Schedule& schedule) {
  const double optimum = schedule.lower_bound.value_or(0.0);
  if (!at_most(schedule.makespan, optimum, kMaxRoundingCost)) {
    throw InputError(fmt::format("the values span more than double precision resolves (a worker's "
                                 "rounding takes its computation to {}, the optimum is {}); use "
                                 "b, s and alpha of closer magnitudes",
                                 schedule.makespan, optimum),
                     "");
  }
}

}  // namespace

Schedule plan(const Instance& instance, const PlanOptions& options) {
  if (options.time_limit) {
    throw OptionError("the DLT solvers do not search: no time limit applies", "time_limit");
  }
  const auto start = std::chrono::steady_clock::now();
  validate_instance(instance);
  require_solver_size(instance, options.solver);
  Schedule schedule = solve(instance, options.solver);
  schedule.algorithm = "lp7";
  schedule.lower_bound = schedule.makespan;
  add_transfers(schedule);
  settle_makespan(instance, schedule);
  require_small_rounding(schedule);
  require_checked(instance, schedule);
  // Optimal to the tolerance the solvers are tested to agree to.
  if (at_most(schedule.makespan, *schedule.lower_bound, kLpTolerance)) {
    schedule.prove_optimal(Proof::lower_bound);
  }
  schedule.solve_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return schedule;
}

}  // namespace redist::dlt
