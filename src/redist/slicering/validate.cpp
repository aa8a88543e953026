#include "redist/slicering/validate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "redist/common/overlap.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::slicering {

namespace {

// The reason the claims contradict the recomputed T_step `t`, or empty.
std::string contradiction(const Claims& claims, double t) {
  if (claims.t_step && !same_time(*claims.t_step, t)) {
    return fmt::format("t_step is {} but the ring and shares give {}", *claims.t_step, t);
  }
  if (claims.makespan && !same_time(*claims.makespan, t)) {
    return fmt::format("makespan is {} but the ring and shares give {}", *claims.makespan, t);
  }
  if (claims.lower_bound && !at_most(*claims.lower_bound, t)) {
    return fmt::format("lower_bound {} exceeds the T_step {} of the solution itself",
                       *claims.lower_bound, t);
  }
  if (claims.optimal.value_or(false) && claims.lower_bound && !at_most(t, *claims.lower_bound)) {
    return fmt::format("optimal is claimed but T_step {} is above the lower_bound {}", t,
                       *claims.lower_bound);
  }
  return {};
}

// The members: distinct processors of the cluster, one share each; valid when they are.
CheckResult member_problem(const Cluster& cluster, const std::vector<long long>& ring,
                           const std::vector<double>& alpha) {
  const long long p = static_cast<long long>(cluster.w.size());
  const std::size_t q = ring.size();
  if (q == 0) return {false, 0.0, "the ring is empty"};
  if (alpha.size() != q) {
    return {false, 0.0, fmt::format("{} shares for a ring of {} processors", alpha.size(), q)};
  }
  std::vector<std::size_t> position(static_cast<std::size_t>(p), q);  // q: not seen yet
  for (std::size_t k = 0; k < q; ++k) {
    if (ring[k] < 0 || ring[k] >= p) {
      return {
          false, 0.0, fmt::format("ring[{}] = {} is not a processor (p = {})", k, ring[k], p), {k}};
    }
    std::size_t& first = position[static_cast<std::size_t>(ring[k])];
    if (first < q) {
      return {
          false, 0.0, fmt::format("processor {} appears twice in the ring", ring[k]), {first, k}};
    }
    first = k;
  }
  return {true, 0.0, ""};
}

// The shares: finite, >= 0, summing to 1 (a compensated sum, whose rounding depends neither on
// the ring's size nor on its order); valid when they are.
CheckResult share_problem(const std::vector<double>& alpha) {
  CompensatedSum sum;
  for (std::size_t k = 0; k < alpha.size(); ++k) {
    if (!std::isfinite(alpha[k]) || alpha[k] < 0.0) {
      return {
          false, 0.0, fmt::format("alpha[{}] = {} is not a finite share >= 0", k, alpha[k]), {k}};
    }
    sum.add(alpha[k]);
  }
  if (std::fabs(sum.value() - 1.0) > kTimeTolerance) {
    return {false, 0.0, fmt::format("the shares sum to {}, not 1", sum.value())};
  }
  return {true, 0.0, ""};
}

// SLICE Eq. 1 for members and shares that passed the checks above.
double t_step(const Cluster& cluster, const std::vector<long long>& ring,
              const std::vector<double>& alpha) {
  const std::size_t q = ring.size();
  double t = 0.0;
  for (std::size_t k = 0; k < q; ++k) {
    const auto i = static_cast<std::size_t>(ring[k]);
    double step = alpha[k] * (cluster.W * cluster.w[i]);  // W w first: alpha W may be subnormal
    if (q >= 2) {
      const auto before = static_cast<std::size_t>(ring[k == 0 ? q - 1 : k - 1]);
      const auto after = static_cast<std::size_t>(ring[k + 1 == q ? 0 : k + 1]);
      step += cluster.H *
              (cluster.c[i * cluster.w.size() + before] + cluster.c[i * cluster.w.size() + after]);
    }
    if (step > t) t = step;
  }
  return t;
}

}  // namespace

CheckResult check(const Cluster& cluster, const std::vector<long long>& ring,
                  const std::vector<double>& alpha, const Claims& claims) {
  if (CheckResult r = member_problem(cluster, ring, alpha); !r.valid) return r;
  if (CheckResult r = share_problem(alpha); !r.valid) return r;
  const double t = t_step(cluster, ring, alpha);
  if (std::string why = contradiction(claims, t); !why.empty()) return {false, 0.0, why};
  return {true, t, ""};
}

CheckResult check(const Cluster& cluster, const Solution& solution) {
  const std::vector<long long> ring(solution.ring.begin(), solution.ring.end());
  Claims claims{std::nullopt, solution.makespan, std::nullopt, solution.optimal};
  if (solution.lower_bound > 0.0) claims.lower_bound = solution.lower_bound;
  return check(cluster, ring, solution.alpha, claims);
}

}  // namespace redist::slicering
