#include "redist/lau/traffic.hpp"

#include <algorithm>
#include <functional>

#include "redist/lau/linear.hpp"

namespace redist::lau {

std::int64_t traffic_shift(const std::vector<std::int64_t>& linear) {
  const std::size_t n = linear.size();
  std::size_t positive = 0, negative = 0;
  for (std::int64_t s : linear) {
    positive += s > 0;
    negative += s < 0;
  }
  // rank k (1-based) in non-increasing order.
  auto ranked = [&linear](std::size_t k) {
    std::vector<std::int64_t> sorted = linear;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k - 1),
                     sorted.end(), std::greater<>());
    return sorted[k - 1];
  };
  if (n % 2 == 1) {
    if (positive > n / 2 || negative > n / 2) return ranked((n + 1) / 2);
    return 0;
  }
  if (positive > n / 2) return ranked(n / 2);
  if (negative > n / 2) return ranked(n / 2 + 1);
  return 0;
}

Plan plan_traffic(const Instance& in) {
  const std::vector<std::int64_t> linear = linear_flows(in);
  return plan_with_shift(in, linear, traffic_shift(linear), "traffic");
}

}  // namespace redist::lau
