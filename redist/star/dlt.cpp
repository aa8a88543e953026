#include "redist/star/dlt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/lp/lp_solver.hpp"

namespace redist::star {

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
}

namespace {

double lower_end(const DltInstance& in, std::size_t i, double T) {
  return std::max(in.alpha[i] - T * in.s[i], -T * in.b[i]);
}

// Deltas inside the boxes at T summing to 0 (T feasible).
std::vector<double> deltas_at(const DltInstance& in, double T) {
  const std::size_t m = in.alpha.size();
  std::vector<double> lo(m), hi(m), delta(m);
  double sum_lo = 0, slack = 0;
  for (std::size_t i = 0; i < m; ++i) {
    lo[i] = lower_end(in, i, T);
    hi[i] = T * in.b[i];
    sum_lo += lo[i];
    slack += std::max(0.0, hi[i] - lo[i]);
  }
  const double theta = slack > 0 ? std::clamp(-sum_lo / slack, 0.0, 1.0) : 0.0;
  for (std::size_t i = 0; i < m; ++i) delta[i] = lo[i] + theta * std::max(0.0, hi[i] - lo[i]);
  return delta;
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
  double A = 0, B = 0;
  for (std::size_t i = 0; i < m; ++i) A += in.alpha[i], B += in.s[i];
  double T = 0, prev = 0;
  for (std::size_t k = 0; k <= m; ++k) {
    const double right = k < m ? t[order[k]] : inf;
    const double root = A <= 0 ? prev : A / B;  // g is non-increasing: its least zero
    if (root <= right) {
      T = std::max(prev, root);
      break;
    }
    const std::size_t i = order[k];
    A -= in.alpha[i];
    B += in.b[i] - in.s[i];
    prev = right;
  }
  // Every box non-empty: alpha_i - T s_i <= T b_i.
  for (std::size_t i = 0; i < m; ++i) T = std::max(T, in.alpha[i] / (in.s[i] + in.b[i]));
  out.makespan = T;
  out.delta = deltas_at(in, T);
  return out;
}

DltSchedule solve_dlt_lp(const DltInstance& in) {
  const std::size_t m = in.alpha.size();
  lp::Model model;
  const int T = model.add_variable(0, lp::kInfinity, 1.0);
  std::vector<int> d(m);
  for (std::size_t i = 0; i < m; ++i) d[i] = model.add_variable(-lp::kInfinity, lp::kInfinity);
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

DltSchedule solve_dlt(const DltInstance& in, const std::string& solver) {
  if (solver == "fast") return solve_dlt_fast(in);
  if (solver == "lp") return solve_dlt_lp(in);
  throw InputError("unknown solver '" + solver + "' (expected fast or lp)", "--solver");
}

void dlt_transfers(DltSchedule& s) {
  s.transfers.clear();
  double L = 0;
  for (double d : s.delta) {
    if (d > 0) L += d;
  }
  if (L <= 0 || s.makespan <= 0) return;
  for (std::size_t i = 0; i < s.delta.size(); ++i) {
    if (s.delta[i] <= 0) continue;
    for (std::size_t j = 0; j < s.delta.size(); ++j) {
      if (s.delta[j] >= 0) continue;
      DltTransfer t;
      t.from = i;
      t.to = j;
      t.amount = s.delta[i] * (-s.delta[j]) / L;
      t.rate = t.amount / s.makespan;
      s.transfers.push_back(t);
    }
  }
}

}  // namespace redist::star
