#include "redist/lau/validate.hpp"

#include <utility>

#include <fmt/format.h>

#include "redist/lau/evaluate.hpp"

namespace redist::lau {

namespace {

std::string time_text(const Time& t) { return t ? fmt::format("{}", *t) : "null"; }

// Flows of one entry per node that balance every node; valid (an empty reason) when they do,
// else the reason and the node they do not balance.
CheckResult structure_problem(const Instance& instance, const std::vector<std::int64_t>& flows) {
  if (flows.size() != instance.size()) {
    return {false, 0.0,
            fmt::format("{} flows for {} nodes (one flow per ring link is needed)", flows.size(),
                        instance.size())};
  }
  if (const auto bad = unbalanced_node(instance, flows)) {
    return {false,
            0.0,
            fmt::format("the flows do not balance node {}: it does not end with its target {}",
                        *bad, instance.targets[*bad]),
            {*bad}};
  }
  return {true, 0.0, ""};
}

// The nodes of a deadlocked schedule that owe a message: none of them ever sends (a valid
// schedule deadlocks in single-send mode when every node is red, in multi-send mode when every
// load is 0, closed_forms.hpp), so these are the nodes left waiting.
std::vector<std::size_t> waiting_nodes(const std::vector<std::int64_t>& flows) {
  std::vector<std::size_t> nodes;
  for (std::size_t v = 0; v < flows.size(); ++v) {
    if (sent_by(flows, v) > 0) nodes.push_back(v);
  }
  return nodes;
}

// The first stated claim that differs from the evaluation of the flows, or "".
std::string claim_problem(const Plan& plan, const Evaluation& e, const Stated& stated) {
  const std::pair<const char*, std::pair<Time, Time>> claims[] = {
      {"t_single", {stated.t_single ? plan.t_single : e.t_single, e.t_single}},
      {"t_multi", {stated.t_multi ? plan.t_multi : e.t_multi, e.t_multi}},
      {"h", {stated.h ? Time{plan.h} : Time{e.h}, Time{e.h}}},
      {"traffic", {stated.traffic ? Time{plan.traffic} : Time{e.traffic}, Time{e.traffic}}},
  };
  for (const auto& [key, values] : claims) {
    const auto& [claimed, actual] = values;
    if (claimed != actual) {
      return fmt::format("{} is {} but the flows give {}", key, time_text(claimed),
                         time_text(actual));
    }
  }
  return {};
}

// A stated lower bound above the makespan t, or `optimal: true` above the bound, or "".
std::string bound_problem(const Plan& plan, std::int64_t t, const Stated& stated) {
  const double bound = plan.lower_bound.value_or(0.0);
  if (!stated.lower_bound || !(bound > 0)) return {};
  if (bound > static_cast<double>(t)) {
    return fmt::format("lower_bound is {} but the plan takes {} steps", bound, t);
  }
  if (stated.optimal && plan.optimal && static_cast<double>(t) > bound) {
    return fmt::format("optimal is true but the plan takes {} steps, above its lower bound {}", t,
                       bound);
  }
  return {};
}

}  // namespace

CheckResult check(const Instance& instance, const Plan& plan, const Stated& stated) {
  validate_instance(instance);
  if (CheckResult structure = structure_problem(instance, plan.flows); !structure.valid) {
    return structure;
  }
  const Evaluation e = evaluate(instance, plan.flows);
  const Time t = plan.mode == Mode::single ? e.t_single : e.t_multi;
  if (!t) {
    return {false, 0.0, fmt::format("the schedule deadlocks in {}-send mode", mode_name(plan.mode)),
            waiting_nodes(plan.flows)};
  }
  if (std::string why = claim_problem(plan, e, stated); !why.empty()) return {false, 0.0, why};
  if (std::string why = bound_problem(plan, *t, stated); !why.empty()) return {false, 0.0, why};
  return {true, static_cast<double>(*t), ""};
}

}  // namespace redist::lau
