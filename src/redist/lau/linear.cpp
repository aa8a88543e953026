#include "redist/lau/linear.hpp"

namespace redist::lau {

Plan plan_with_shift(const Instance& in, const std::vector<std::int64_t>& linear, std::int64_t h,
                     std::string algorithm) {
  Plan plan;
  plan.algorithm = std::move(algorithm);
  plan.h = h;
  plan.flows = shifted(linear, h);
  complete_plan(in, plan);
  return plan;
}

Plan plan_linear(const Instance& in) { return plan_with_shift(in, linear_flows(in), 0, "linear"); }

}  // namespace redist::lau
