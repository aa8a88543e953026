// Random star platforms of STAR §4.1, shared by tests, benchmarks and `redist experiment star`.
//
// Four platform types (links homogeneous or not x computation homogeneous or not) and three
// parameter ranges: general (c, w in 1..100), c <= w (c in 20..50, w in 50..80: "faster
// communicating") and c >= w (c in 50..80, w in 20..50: "faster computing"). A homogeneous
// quantity draws one value for every worker. Values are integers, so every time is exact.
// The paper does not give the number of workers nor how the tasks (at least 50) are spread; we
// draw m in [min_workers, max_workers] and N in [min_tasks, max_tasks] tasks, each sent to a
// worker drawn with probability proportional to u_i^2, u_i uniform in (0, 1) (skewed loads, some
// workers nearly empty).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "redist/star/model.hpp"

namespace redist::star {

enum class Range { general, c_le_w, c_ge_w };

struct PlatformType {
  bool homogeneous_links = true;
  bool homogeneous_computation = true;
  Range range = Range::general;
};

struct RandomShape {
  std::size_t min_workers = 3, max_workers = 10;
  std::int64_t min_tasks = 50, max_tasks = 150;
};

inline const char* to_string(Range r) {
  switch (r) {
    case Range::general:
      return "";
    case Range::c_le_w:
      return "c <= w";
    case Range::c_ge_w:
      return "c >= w";
  }
  return "";
}

inline Instance random_instance(std::mt19937_64& rng, const PlatformType& type,
                                const RandomShape& shape = {}) {
  std::uniform_int_distribution<std::size_t> workers(shape.min_workers, shape.max_workers);
  std::uniform_int_distribution<std::int64_t> tasks(shape.min_tasks, shape.max_tasks);
  int c_lo = 1, c_hi = 100, w_lo = 1, w_hi = 100;
  if (type.range == Range::c_le_w) c_lo = 20, c_hi = 50, w_lo = 50, w_hi = 80;
  if (type.range == Range::c_ge_w) c_lo = 50, c_hi = 80, w_lo = 20, w_hi = 50;
  std::uniform_int_distribution<int> cd(c_lo, c_hi), wd(w_lo, w_hi);
  const std::size_t m = workers(rng);
  Instance in;
  const double c0 = cd(rng), w0 = wd(rng);
  for (std::size_t i = 0; i < m; ++i) {
    in.c.push_back(type.homogeneous_links ? c0 : cd(rng));
    in.w.push_back(type.homogeneous_computation ? w0 : wd(rng));
  }
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> weight(m);
  for (double& x : weight) {
    const double v = u(rng);
    x = v * v + 1e-12;
  }
  std::discrete_distribution<std::size_t> owner(weight.begin(), weight.end());
  in.loads.assign(m, 0);
  const std::int64_t n = tasks(rng);
  for (std::int64_t k = 0; k < n; ++k) ++in.loads[owner(rng)];
  return in;
}

}  // namespace redist::star
