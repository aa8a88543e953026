// LAU §2-3: the load distribution problem on a ring (docs/lau.md).
//
// n >= 2 nodes on a ring hold integer loads l_i >= 0 and must end with targets t_i (the average by
// default). A schedule is a vector of flows: flows[i] is the net load moved from node i to node
// succ(i) = (i+1) mod n (negative: the other way). Valid schedules are exactly the shifts
// flows[i] = linear[i] - h of the Linear schedule (LAU Lemma 1), linear[i] = sum_{j<=i} (l_j -
// t_j).
//
// A node is red when its initial load is below what it sends (LAU §2): l_i < out_i with
// out_i = max(flows[i], 0) + max(-flows[i-1], 0). In a valid schedule a red node receives exactly
// one message (out_i - l_i <= in_i because t_i >= 0), and consecutive red nodes forward in the
// same direction.
//
// Times are std::optional<int64>: std::nullopt when the schedule deadlocks (docs/lau.md: `null`).
// All arithmetic on loads and flows is overflow-checked (InputError when a result leaves int64).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redist/common/checked.hpp"
#include "redist/common/result.hpp"

namespace redist::lau {

enum class Mode { single, multi };

struct Instance {
  std::vector<std::int64_t> loads;
  std::vector<std::int64_t> targets;  // same total as loads; the average when read without them
  std::size_t size() const { return loads.size(); }
};

using Time = std::optional<std::int64_t>;  // nullopt: deadlock

// A planned schedule (docs/lau.md `plan` output). Its claims (planner.hpp) are those of the mode
// it was planned for: makespan is its time in that mode (infinity when it deadlocks), lower_bound
// the optimum over every valid schedule in that mode (LAU Lemma 1: every valid schedule is a shift
// of Linear; infinity when they all deadlock), optimal when it reaches it.
struct Plan : PlanClaims {
  Mode mode = Mode::single;  // the send mode planned for
  std::vector<std::int64_t> flows;
  std::int64_t h = 0;  // flows[i] = linear[i] - h
  Time t_single, t_multi;
  std::int64_t traffic = 0;  // sum of |flows|
};

// The largest ring any LAU command accepts: the planners keep a few 128-bit prefix sums per node
// (about 100 bytes per node in all, plus the JSON text and its parse tree).
inline constexpr std::size_t kMaxNodes = 10'000'000;

// Checks 2 <= n <= kMaxNodes, loads and targets >= 0, equal lengths and equal (non-overflowing)
// sums. Throws InputError with a path relative to the instance object ("loads[3]", "targets").
void validate_instance(const Instance& instance);

// Instance whose targets are the average load; InputError("...not divisible...") otherwise.
Instance balanced_instance(std::vector<std::int64_t> loads);

// The Linear schedule's flows (LAU Figure 6): prefix sums of l_i - t_i; flows[n-1] = 0.
std::vector<std::int64_t> linear_flows(const Instance& instance);

// flows[i] - h for every i; InputError if a value leaves int64.
std::vector<std::int64_t> shifted(const std::vector<std::int64_t>& flows, std::int64_t h);

// What node i sends: max(flows[i], 0) + max(-flows[i-1], 0) (in 128 bits: cannot overflow).
Int128 sent_by(const std::vector<std::int64_t>& flows, std::size_t i);
bool is_red(const Instance& instance, const std::vector<std::int64_t>& flows, std::size_t i);

// sum |flows[i]|; InputError when it does not fit int64.
std::int64_t traffic(const std::vector<std::int64_t>& flows);

// Empty when the flows balance every node; otherwise the index of the first node they do not
// balance (l_i + received - sent != t_i).
std::optional<std::size_t> unbalanced_node(const Instance& instance,
                                           const std::vector<std::int64_t>& flows);

// Fills t_single and t_multi (closed forms) and traffic of a plan whose flows and h are set.
void complete_plan(const Instance& instance, Plan& plan);

const char* mode_name(Mode mode);
Time time_in(const Plan& plan, Mode mode);

// Orders times with deadlock (nullopt) above every finite time.
inline bool time_less(const Time& a, const Time& b) {
  if (!a) return false;
  if (!b) return true;
  return *a < *b;
}

}  // namespace redist::lau
