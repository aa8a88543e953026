#include "redist/slicering/validate.hpp"

#include <cmath>

#include <fmt/format.h>

namespace redist::slicering {

CheckResult check_solution(const Cluster& cluster, const std::vector<long long>& ring,
                           const std::vector<double>& alpha, std::optional<double> t_step) {
  CheckResult r;
  const long long p = static_cast<long long>(cluster.w.size());
  const std::size_t q = ring.size();
  if (q == 0) {
    r.reason = "the ring is empty";
    return r;
  }
  if (alpha.size() != q) {
    r.reason = fmt::format("{} shares for a ring of {} processors", alpha.size(), q);
    return r;
  }
  std::vector<char> seen(static_cast<std::size_t>(p), 0);
  for (std::size_t k = 0; k < q; ++k) {
    if (ring[k] < 0 || ring[k] >= p) {
      r.reason = fmt::format("ring[{}] = {} is not a processor (p = {})", k, ring[k], p);
      return r;
    }
    if (seen[static_cast<std::size_t>(ring[k])]++) {
      r.reason = fmt::format("processor {} appears twice in the ring", ring[k]);
      return r;
    }
  }
  double sum = 0.0;
  for (std::size_t k = 0; k < q; ++k) {
    if (!std::isfinite(alpha[k]) || alpha[k] < 0.0) {
      r.reason = fmt::format("alpha[{}] = {} is not a finite share >= 0", k, alpha[k]);
      return r;
    }
    sum += alpha[k];
  }
  if (std::fabs(sum - 1.0) > 1e-9) {
    r.reason = fmt::format("the shares sum to {}, not 1", sum);
    return r;
  }
  double t = 0.0;
  for (std::size_t k = 0; k < q; ++k) {
    const auto i = static_cast<std::size_t>(ring[k]);
    double step = alpha[k] * cluster.W * cluster.w[i];
    if (q >= 2) {
      const auto before = static_cast<std::size_t>(ring[k == 0 ? q - 1 : k - 1]);
      const auto after = static_cast<std::size_t>(ring[k + 1 == q ? 0 : k + 1]);
      step += cluster.H *
              (cluster.c[i * cluster.w.size() + before] + cluster.c[i * cluster.w.size() + after]);
    }
    if (step > t) t = step;
  }
  if (t_step && std::fabs(*t_step - t) > 1e-9 * std::max(std::fabs(*t_step), std::fabs(t))) {
    r.reason = fmt::format("t_step is {} but the ring and shares give {}", *t_step, t);
    return r;
  }
  r.valid = true;
  r.t_step = t;
  return r;
}

}  // namespace redist::slicering
