#include "redist/star/dlt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/lp/lp_solver.hpp"
#include "redist/star/dlt_validate.hpp"

namespace redist::star {

namespace {
constexpr double kSmallestTime = std::numeric_limits<double>::min();
constexpr double kLpMaxSpread = 1e12;
}  // namespace

namespace {

// The optimal T is at most T_own = max_i alpha_i / s_i (each worker computing its own load) and
// at least alpha_i / (s_i + b_i) for every i; the deltas and their boxes are bounded by the total
// load. Refuses inputs where these leave the normal doubles.
void check_dlt_scale(const DltInstance& in) {
  const std::size_t m = in.alpha.size();
  double total_alpha = 0, total_rate = 0, own_time = 0;
  for (std::size_t i = 0; i < m; ++i) {
    total_alpha += in.alpha[i];
    total_rate += in.s[i] + in.b[i];
    if (!std::isfinite(total_alpha)) {
      throw InputError("the total of alpha overflows a double; scale the loads",
                       fmt::format("alpha[{}]", i));
    }
    if (!std::isfinite(total_rate)) {
      throw InputError("the total of s and b overflows a double; scale the speeds and bandwidths",
                       fmt::format("s[{}]", i));
    }
    own_time = std::max(own_time, in.alpha[i] / in.s[i]);
    if (!std::isfinite(own_time)) {
      throw InputError("alpha / s overflows a double; scale the loads or the speeds",
                       fmt::format("alpha[{}]", i));
    }
    if (in.alpha[i] > 0 && in.alpha[i] / (in.s[i] + in.b[i]) < kSmallestTime) {
      throw InputError(
          "alpha / (s + b) underflows (below 2.2e-308); scale the loads up or the speeds down",
          fmt::format("alpha[{}]", i));
    }
  }
  // The deltas' boxes have widths up to alpha_i + sum alpha, summed over the workers.
  if (!std::isfinite(2 * (static_cast<double>(m) + 1) * total_alpha)) {
    throw InputError("the total of alpha times (workers + 1) overflows a double; scale the loads",
                     "alpha");
  }
}

}  // namespace

void validate_dlt_instance(const DltInstance& in) {
  const std::size_t m = in.alpha.size();
  if (m == 0) throw InputError("needs at least 1 worker", "alpha");
  if (in.b.size() != m) {
    throw InputError(fmt::format("has {} entries, alpha has {}", in.b.size(), m), "b");
  }
  if (in.s.size() != m) {
    throw InputError(fmt::format("has {} entries, alpha has {}", in.s.size(), m), "s");
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(in.b[i]) || in.b[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("b[{}]", i));
    }
    if (!std::isfinite(in.s[i]) || in.s[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("s[{}]", i));
    }
    if (!std::isfinite(in.alpha[i]) || in.alpha[i] < 0) {
      throw InputError("must be a finite number >= 0", fmt::format("alpha[{}]", i));
    }
  }
  check_dlt_scale(in);
}

namespace {

double total_load(const DltInstance& in) {
  double total = 0;
  for (double a : in.alpha) total += a;
  return total;
}

// max(alpha_i - T s_i, -T b_i), and never below -sum alpha: with delta_j <= alpha_j no worker
// can receive more than the total load, so this keeps the feasible deltas and keeps the lower
// ends finite when T s_i and T b_i overflow.
double lower_end(const DltInstance& in, std::size_t i, double T, double total) {
  return std::max({in.alpha[i] - T * in.s[i], -T * in.b[i], -total});
}

// A worker sends at most what it holds: delta_i <= alpha_i besides (7a).
double upper_end(const DltInstance& in, std::size_t i, double T) {
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
bool deltas_at(const DltInstance& in, double T, std::vector<double>& delta) {
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
    // A rounding sliver (1e-12 of the total load at most) whose rate delta / T would be a
    // subnormal double is left out when the box allows it: its transfer could not be timed to
    // double precision. What it leaves of the sum is absorbed below.
    if (T > 0 && lo[i] <= 0 && 0 <= hi[i] && std::abs(delta[i]) <= 1e-12 * total &&
        std::abs(delta[i]) / T < std::numeric_limits<double>::min()) {
      delta[i] = 0;
    }
  }
  return absorb_rounding(lo, hi, delta);
}

// The solver's deltas moved into the boxes at T (CLP meets constraints only to its tolerance),
// then shifted towards the upper or lower ends, in proportion to the room left, to sum to 0.
std::vector<double> project_on_boxes(const DltInstance& in, double T, std::vector<double> delta) {
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
DltSchedule solve_scaled_lp(const DltInstance& in) {
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
  DltSchedule out;
  out.solver = "lp";
  out.makespan = std::max(0.0, r.values[static_cast<std::size_t>(T)]);
  out.delta.resize(m);
  for (std::size_t i = 0; i < m; ++i) out.delta[i] = r.values[static_cast<std::size_t>(d[i])];
  return out;
}

}  // namespace

DltSchedule solve_dlt_fast(const DltInstance& in) {
  const std::size_t m = in.alpha.size();
  DltSchedule out;
  out.solver = "fast";
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
  // rounding unit, at most 2^-33 in all (far inside the 1e-7 the solvers agree to).
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
void require_lp_range(const DltInstance& in) {
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

DltSchedule solve_dlt_lp(const DltInstance& in) {
  require_lp_range(in);
  const std::size_t m = in.alpha.size();
  const double load_unit = std::max(total_load(in), std::numeric_limits<double>::min());
  double rate_unit = 0;
  for (std::size_t i = 0; i < m; ++i) rate_unit = std::max({rate_unit, in.b[i], in.s[i]});
  DltInstance scaled = in;
  for (std::size_t i = 0; i < m; ++i) {
    scaled.alpha[i] /= load_unit;
    scaled.b[i] /= rate_unit;
    scaled.s[i] /= rate_unit;
  }
  DltSchedule out = solve_scaled_lp(scaled);
  out.makespan *= load_unit / rate_unit;
  for (double& d : out.delta) d *= load_unit;
  out.delta = project_on_boxes(in, out.makespan, std::move(out.delta));
  return out;
}

DltSchedule solve_dlt(const DltInstance& in, const std::string& solver) {
  if (solver == "fast") return solve_dlt_fast(in);
  if (solver == "lp") return solve_dlt_lp(in);
  throw OptionError("unknown solver '" + solver + "' (expected fast or lp)", "solver");
}

void dlt_transfers(DltSchedule& s) {
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
    if (amount > 0) s.transfers.push_back({senders[a], receivers[b], amount, amount / s.makespan});
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
    if (to_send > 0 && !s.transfers.empty() && s.transfers.back().from == senders[a]) {
      DltTransfer& last = s.transfers.back();
      last.amount += to_send;
      last.rate = last.amount / s.makespan;
    } else if (to_send > 0) {
      s.transfers.push_back({senders[a], largest, to_send, to_send / s.makespan});
    }
    if (a + 1 < senders.size()) to_send = s.delta[senders[a + 1]];
  }
}

namespace {

// Every plan is re-checked by the independent validator before it is returned: when the values
// span more than double precision resolves (a worker whose sliver of rounding takes longer than
// the makespan to compute), the instance is refused rather than a wrong schedule returned.
void require_checked(const DltInstance& instance, const DltSchedule& schedule) {
  DltClaimedSchedule claim;
  claim.makespan = schedule.makespan;
  claim.delta = schedule.delta;
  claim.transfers.reserve(schedule.transfers.size());
  for (const DltTransfer& t : schedule.transfers) {
    claim.transfers.push_back(
        {static_cast<std::int64_t>(t.from), static_cast<std::int64_t>(t.to), t.amount, t.rate});
  }
  const DltValidationResult r = validate_dlt_schedule(instance, claim);
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
void settle_makespan(const DltInstance& in, DltSchedule& s) {
  const std::size_t m = in.alpha.size();
  std::vector<double> sent(m, 0.0), received(m, 0.0);
  for (const DltTransfer& t : s.transfers) {
    sent[t.from] += t.amount;
    received[t.to] += t.amount;
  }
  double finish = s.makespan;
  for (std::size_t i = 0; i < m; ++i) {
    const double work = std::max(0.0, in.alpha[i] - sent[i] + received[i]);
    finish = std::max({finish, work / in.s[i], sent[i] / in.b[i], received[i] / in.b[i]});
  }
  if (finish <= s.makespan) return;
  s.makespan = finish;
  for (DltTransfer& t : s.transfers) t.rate = t.amount / finish;
}

}  // namespace

DltSchedule plan_dlt(const DltInstance& instance, const std::string& solver) {
  validate_dlt_instance(instance);
  const std::size_t limit = solver == "lp" ? kDltMaxWorkersLp : kDltMaxWorkersFast;
  if ((solver == "lp" || solver == "fast") && instance.alpha.size() > limit) {
    throw InputError(
        fmt::format("{} workers, more than the {} solver takes ({}){}", instance.alpha.size(),
                    solver, limit, solver == "lp" ? "; use the fast solver" : ""),
        "alpha");
  }
  DltSchedule schedule = solve_dlt(instance, solver);
  schedule.lower_bound = schedule.makespan;
  dlt_transfers(schedule);
  settle_makespan(instance, schedule);
  // Beyond a relative 1e-6 the rounding is no longer a detail of the plan: refused as below.
  if (!(schedule.makespan <= schedule.lower_bound * (1 + 1e-6))) {
    throw InputError(fmt::format("the values span more than double precision resolves (a worker's "
                                 "rounding takes its computation to {}, the optimum is {}); use "
                                 "b, s and alpha of closer magnitudes",
                                 schedule.makespan, schedule.lower_bound),
                     "");
  }
  require_checked(instance, schedule);
  // Optimal to the 1e-7 the solvers are tested to agree to.
  schedule.optimal = schedule.makespan <= schedule.lower_bound * (1 + 1e-7);
  return schedule;
}

}  // namespace redist::star
