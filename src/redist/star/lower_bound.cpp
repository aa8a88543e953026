#include "redist/star/lower_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "redist/common/tolerance.hpp"

namespace redist::star {

namespace {

// The bisection for star_lower_bound stops at an interval this narrow relative to its end: a few
// rounding units, so that the bound found is the least admitted makespan to double precision
// (required() is then constant on the last interval, and the step below it is exact).
constexpr double kBoundBisectionWidth = 1e-15;

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Platform {
  const Instance& in;
  double tasks = 0;
  double c0 = kInf;               // min c over workers holding a task
  double min_cw = kInf;           // min_r (c_r + w_r)
  std::vector<std::size_t> by_c;  // workers by non-decreasing c

  explicit Platform(const Instance& instance) : in(instance), by_c(instance.workers()) {
    for (std::size_t i = 0; i < in.workers(); ++i) {
      tasks += static_cast<double>(in.loads[i]);
      if (in.loads[i] > 0) c0 = std::min(c0, in.c[i]);
      min_cw = std::min(min_cw, in.c[i] + in.w[i]);
    }
    std::iota(by_c.begin(), by_c.end(), std::size_t{0});
    std::stable_sort(by_c.begin(), by_c.end(),
                     [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; });
  }

  // T3's a_r: received tasks worker r can compute by M.
  double received_cap(std::size_t r, double M) const {
    const double by_compute = std::floor((M - c0 - in.c[r]) / in.w[r]);
    const double by_port = std::floor((M - c0 - in.w[r]) / in.c[r]);
    return std::max(0.0, std::min(by_compute, by_port));
  }

  // The least makespan T1-T4 allow when every worker i computes at most floor(M / w_i) tasks
  // (kInf when T1 or T3 fails).
  double required(double M) const {
    double computable = 0, reachable = 0, leave = 0, leave_time = 0;
    std::vector<double> into(in.workers());
    for (std::size_t i = 0; i < in.workers(); ++i) {
      const double cap = std::floor(M / in.w[i]);
      const double load = static_cast<double>(in.loads[i]);
      const double a = received_cap(i, M);
      computable += cap;
      reachable += std::min(cap, load + a);
      leave += std::max(0.0, load - cap);
      leave_time += std::max(0.0, load - cap) * in.c[i];
      into[i] = std::min(a, cap);
    }
    if (computable < tasks || reachable < tasks) return kInf;
    if (leave == 0) return 0;
    return std::max(leave_time + min_cw, c0 + forward_time(into, leave));
  }

  // T4: the `count` cheapest forwards (at most into[r] to r), then a computation.
  double forward_time(const std::vector<double>& into, double count) const {
    double sum = 0, last_w = kInf;
    for (std::size_t r : by_c) {
      if (count <= 0) break;
      const double take = std::min(count, into[r]);
      if (take <= 0) continue;
      sum += take * in.c[r];
      count -= take;
    }
    // The last forward goes to some worker that computes a task it does not own.
    for (std::size_t r : by_c) {
      if (into[r] > 0) last_w = std::min(last_w, in.w[r]);
    }
    return count > 0 ? kInf : sum + last_w;
  }

  // The largest point <= M where some floor in required() steps up.
  double step_below(double M) const {
    double b = 0;
    const auto consider = [&](double base, double step) {
      if (M < base) return;
      const double x = base + std::floor((M - base) / step) * step;
      if (x <= M) b = std::max(b, x);
    };
    for (std::size_t i = 0; i < in.workers(); ++i) {
      consider(0, in.w[i]);
      consider(c0 + in.c[i], in.w[i]);
      consider(c0 + in.w[i], in.c[i]);
    }
    return b;
  }
};

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
  for (int it = 0; it < 200 && hi - lo > kSearchResolution * hi; ++it) {
    const double mid = lo + (hi - lo) / 2;
    (count_by(in, mid) >= tasks ? hi : lo) = mid;
  }
  // The bound is a grid point k * w_i in (lo, hi]: the largest one <= hi.
  double bound = 0;
  for (double w : in.w) bound = std::max(bound, std::floor(hi / w) * w);
  return std::min(bound, hi);
}

bool star_bound_admits(const Instance& in, double makespan) {
  return Platform(in).required(makespan) <= makespan;
}

double star_lower_bound(const Instance& in) {
  const Platform p(in);
  if (p.tasks == 0) return 0;
  // The no-transfer makespan is feasible, hence admitted; 0 is not (no task computed by 0).
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < in.workers(); ++i) {
    hi = std::max(hi, static_cast<double>(in.loads[i]) * in.w[i]);
  }
  for (int it = 0; it < 200 && hi - lo > kBoundBisectionWidth * hi; ++it) {
    const double mid = lo + (hi - lo) / 2;
    (p.required(mid) <= mid ? hi : lo) = mid;
  }
  // required() is constant on [step_below(hi), hi]: the least admitted point there.
  const double bound = std::min(hi, std::max(p.step_below(hi), p.required(hi)));
  return std::max(bound, computation_lower_bound(in));
}

}  // namespace redist::star
