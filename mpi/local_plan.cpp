#include "mpi/local_plan.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/ring/flow_executor.hpp"
#include "redist/ring/planner.hpp"

namespace redist::mpi {

const char* to_string(Mode mode) { return mode == Mode::ring ? "ring" : "linear"; }

namespace {

double asap_makespan(const ring::Instance& instance, const std::vector<std::int64_t>& flows) {
  return ring::schedule_makespan(instance, ring::execute_flows_asap(instance, flows));
}

}  // namespace

FlowPlan plan_flows(const ring::Instance& instance, Mode mode, std::string_view algorithm) {
  ring::validate_instance(instance);
  const std::size_t n = instance.size();
  FlowPlan plan;
  if (mode == Mode::linear) {
    plan.flows = ring::prefix_imbalances(instance);
    plan.flows[n - 1] = 0;
    if (!instance.bidirectional) {
      for (std::size_t i = 0; i < n; ++i) {
        if (plan.flows[i] < 0) {
          throw InputError(fmt::format("linear mode on a unidirectional ring needs every prefix "
                                       "imbalance >= 0, but link {} -> {} would carry {} items "
                                       "backwards",
                                       i, instance.succ(i), -plan.flows[i]),
                           "--mode");
        }
      }
    }
    plan.algorithm = "linear-asap";
    plan.makespan = asap_makespan(instance, plan.flows);
  } else {
    ring::Schedule s = ring::plan_ring(instance, algorithm);
    plan.flows = s.flows;
    plan.algorithm = s.algorithm;
    plan.makespan = s.makespan;
    const auto [lo, hi] = std::minmax_element(plan.flows.begin(), plan.flows.end());
    const std::int64_t circulation = *lo > 0 ? *lo : (*hi < 0 ? *hi : 0);
    if (circulation != 0) {
      for (std::int64_t& f : plan.flows) f -= circulation;
      plan.algorithm += "+no-circulation";
      plan.makespan = asap_makespan(instance, plan.flows);
    }
  }
  plan.rotation = plan.flows[n - 1];
  return plan;
}

LocalPlan make_local_plan(const ring::Instance& instance, const std::vector<std::int64_t>& flows,
                          std::int64_t rank) {
  const std::int64_t n = static_cast<std::int64_t>(instance.size());
  if (static_cast<std::int64_t>(flows.size()) != n || rank < 0 || rank >= n) {
    throw InputError("flows and rank must match the ring", "flows");
  }
  LocalPlan p;
  p.rank = rank;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i < rank) p.start += instance.loads[i];
    p.total += instance.loads[i];
  }
  p.load = instance.loads[rank];
  p.target = instance.targets[rank];
  const std::int64_t f_prev = flows[(rank + n - 1) % n];  // link pred -> rank
  const std::int64_t f_next = flows[rank];                // link rank -> succ
  if (f_next - f_prev != p.load - p.target) {
    throw InputError(fmt::format("flows do not balance rank {}", rank), "flows");
  }
  p.final_start = p.start - f_prev;
  p.right.in = std::max<std::int64_t>(f_prev, 0);
  p.right.out = std::max<std::int64_t>(f_next, 0);
  p.left.in = std::max<std::int64_t>(-f_next, 0);
  p.left.out = std::max<std::int64_t>(-f_prev, 0);
  p.right.own_out = std::min(p.right.out, p.load);
  p.left.own_out = std::min(p.left.out, p.load - p.right.own_out);
  for (Stream* s : {&p.right, &p.left}) {
    s->fwd = s->out - s->own_out;
    s->placed = s->in - s->fwd;
    if (s->placed < 0)
      throw InputError(fmt::format("rank {} would forward items it never receives", rank), "flows");
  }
  p.kept = p.load - p.right.own_out - p.left.own_out;
  p.kept_from = p.left.own_out;
  p.kept_to = p.right.placed;
  if (p.right.placed + p.kept + p.left.placed != p.target) {
    throw InputError(fmt::format("flows do not give rank {} its target", rank), "flows");
  }
  return p;
}

}  // namespace redist::mpi
