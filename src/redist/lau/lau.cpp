// The typed functions of redist/lau.hpp.
#include <fmt/format.h>

#include "redist/lau.hpp"
#include "redist/lau/optimal.hpp"

namespace redist::lau {

Plan plan(const Instance& instance, const PlanOptions& options) {
  Plan out = plan_lau(instance, options.algorithm, options.mode);
  const Plan best = options.algorithm == "optimal" ? out : plan_optimal(instance, options.mode);
  out.makespan = time_in(out, options.mode);
  out.lower_bound = time_in(best, options.mode);
  out.optimal = out.makespan == out.lower_bound;
  return out;
}

CheckResult check(const Instance& instance, const std::vector<std::int64_t>& flows, Mode mode) {
  validate_instance(instance);
  if (flows.size() != instance.size()) {
    return {false, 0.0,
            fmt::format("{} flows for {} nodes (one flow per ring link is needed)", flows.size(),
                        instance.size())};
  }
  if (const auto bad = unbalanced_node(instance, flows)) {
    return {false, 0.0,
            fmt::format("the flows do not balance node {}: it does not end with its target {}",
                        *bad, instance.targets[*bad])};
  }
  const Evaluation e = evaluate_flows(instance, flows);
  const Time t = mode == Mode::single ? e.t_single : e.t_multi;
  if (!t)
    return {false, 0.0, fmt::format("the schedule deadlocks in {}-send mode", mode_name(mode))};
  return {true, static_cast<double>(*t), ""};
}

}  // namespace redist::lau
