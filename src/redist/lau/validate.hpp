// The validator of LAU plans (`redist lau check`, docs/lau.md).
//
// A plan is valid when its flows have one entry per node, balance every node (each ends with its
// target) and do not deadlock in the plan's mode; its makespan is then its time in that mode.
// The claims it states (h, t_single, t_multi, traffic) must equal those of its flows, evaluated
// by redist/lau/evaluate.hpp (simulation, or the closed forms beyond the simulation's budget); a
// stated lower_bound (> 0) must not exceed the makespan, and `optimal: true` with a lower bound
// needs the makespan to meet it.
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
