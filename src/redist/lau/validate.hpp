// The validator of LAU plans (`redist lau check`, docs/lau.md).
//
// A plan is valid when its flows have one entry per node, balance every node (each ends with its
// target) and do not deadlock in the plan's mode; its makespan is then its time in that mode.
// The claims it states (h, t_single, t_multi, traffic) must equal those of its flows, evaluated
// by redist/lau/evaluate.hpp (simulation, or the closed forms beyond the simulation's budget); a
// stated lower_bound (> 0) must not exceed the makespan, and `optimal: true` with a lower bound
// needs the makespan to meet it.
// The rules the validators of the timed families share (common/overlap.hpp: allowances of the times
// compared, an exact sweep of a port's intervals, busy time within a port's span, a horizon) do
// not apply: a plan is one integer flow per ring link, its times are integer step counts from the
// simulation or the closed forms, and every comparison is exact (no tolerance at all). Nothing in a
// plan has an order to depend on: flows[i] belongs to the link i -> i + 1.
// Complexity: that of evaluate (O(n) single-send, O(n log n) or the simulation multi-send).
// An invalid verdict's entries (CheckResult::entries) are nodes: the node the flows do not balance,
// or the nodes a deadlocked schedule leaves waiting (every node that owes a message: none sends).
#pragma once

#include "redist/common/check.hpp"
#include "redist/lau/model.hpp"

namespace redist::lau {

// Which claims a plan states: a planner's result states all; a document read from a file may
// leave some out (io's reader says which), and check compares only those.
struct Stated {
  bool t_single = true;
  bool t_multi = true;
  bool h = true;
  bool traffic = true;
  bool lower_bound = true;  // compared when > 0
  bool optimal = true;      // compared when true and a lower bound is stated
};

// InputError for an invalid instance, and at "flows" when a time, h or the traffic of the flows
// leaves int64.
CheckResult check(const Instance& instance, const Plan& plan, const Stated& stated = {});

}  // namespace redist::lau
