#include "redist/balance/hindsight.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

double checked(double x, const char* what, std::int64_t a, std::int64_t b) {
  if (!std::isfinite(x) || x < 0) {
    throw std::invalid_argument(
        fmt::format("{}({}, {}) = {} is not a finite number >= 0", what, a, b, x));
  }
  return x;
}

void check_iterations(std::int64_t k) {
  if (k < 1 || k > kMaxHindsightIterations) {
    throw InputError(fmt::format("{} iterations: between 1 and {}", k, kMaxHindsightIterations),
                     "iterations");
  }
}

// The best total up to each rebalance point, and the point before it on that best path.
struct Programme {
  std::vector<double> best;            // best[k]: rebalanced after k (best[0] = 0: the start)
  std::vector<std::int64_t> previous;  // the rebalance point before k on the best path (-1: none)
  double total = std::numeric_limits<double>::infinity();
  std::int64_t last = 0;  // the last rebalance point of the optimum
};

Programme run(std::int64_t k_total, const IterationTime& time, const MigrationCost& cost) {
  const auto n = static_cast<std::size_t>(k_total);
  Programme p{std::vector<double>(n, std::numeric_limits<double>::infinity()),
              std::vector<std::int64_t>(n, -1)};
  p.best[0] = 0.0;
  for (std::int64_t j = 0; j < k_total; ++j) {  // best[j] is final: offer its segments
    double segment = 0.0;
    for (std::int64_t t = j + 1; t <= k_total; ++t) {
      segment += checked(time(j, t), "iteration_time", j, t);
      if (t == k_total) break;
      const double offer = p.best[j] + segment + checked(cost(j, t), "migration_cost", j, t);
      if (offer < p.best[t]) p.best[t] = offer, p.previous[t] = j;
    }
    if (p.best[j] + segment < p.total) p.total = p.best[j] + segment, p.last = j;
  }
  return p;
}

}  // namespace

HindsightSchedule schedule_of_points(std::int64_t iterations,
                                     const std::vector<std::int64_t>& points,
                                     const IterationTime& iteration_time,
                                     const MigrationCost& migration_cost) {
  check_iterations(iterations);
  HindsightSchedule s;
  s.points = points;
  std::int64_t partition = 0;
  std::size_t next = 0;
  for (std::int64_t t = 1; t <= iterations; ++t) {
    s.iterations_time += checked(iteration_time(partition, t), "iteration_time", partition, t);
    if (next < points.size() && points[next] == t) {
      if (t >= iterations) break;
      s.migrations_time += checked(migration_cost(partition, t), "migration_cost", partition, t);
      partition = t;
      ++next;
    }
  }
  if (next != points.size()) {
    throw InputError("rebalance points must be increasing, each in 1..K-1", "points");
  }
  s.total_time = s.iterations_time + s.migrations_time;
  return s;
}

HindsightSchedule best_rebalance_points(std::int64_t iterations,
                                        const IterationTime& iteration_time,
                                        const MigrationCost& migration_cost) {
  check_iterations(iterations);
  const Programme p = run(iterations, iteration_time, migration_cost);
  std::vector<std::int64_t> points;
  for (std::int64_t k = p.last; k > 0; k = p.previous[static_cast<std::size_t>(k)]) {
    points.push_back(k);
  }
  std::reverse(points.begin(), points.end());
  return schedule_of_points(iterations, points, iteration_time, migration_cost);
}

}  // namespace redist::balance
