// The ring redistribution model of RRV04 §2 (docs/formats.md).
//
// n >= 2 processors on a ring; processor i holds loads[i] identical atomic items and must end
// with targets[i]. Sending one item from i to succ(i) takes cost_next[i]; to pred(i) (bidirectional
// rings only) cost_prev[i]. One-port: at any instant a processor sends at most one item and
// receives at most one item. Store and forward.
//
// A Schedule is a list of Runs: `count` items sent back to back (or every `period` time units)
// from one processor over one link. Processors are indexed from 0 (the papers count from 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redist/common/result.hpp"

namespace redist::ring {

enum class Direction : std::uint8_t {
  next,  // from i to succ(i) = (i + 1) mod n
  prev,  // from i to pred(i) = (i - 1 + n) mod n
};

const char* to_string(Direction d);

struct Instance {
  bool bidirectional = false;
  std::vector<std::int64_t> loads;
  std::vector<std::int64_t> targets;
  std::vector<double> cost_next;  // size n
  std::vector<double> cost_prev;  // size n when bidirectional, empty otherwise

  std::size_t size() const { return loads.size(); }
  std::size_t succ(std::size_t i) const { return i + 1 == size() ? 0 : i + 1; }
  std::size_t pred(std::size_t i) const { return i == 0 ? size() - 1 : i - 1; }
  // delta_i = loads[i] - targets[i]: positive for overloaded processors.
  std::int64_t imbalance(std::size_t i) const { return loads[i] - targets[i]; }
  double cost(std::size_t from, Direction d) const {
    return d == Direction::next ? cost_next[from] : cost_prev[from];
  }
  std::size_t receiver(std::size_t from, Direction d) const {
    return d == Direction::next ? succ(from) : pred(from);
  }
  // True when every link (of every direction used) has the same cost.
  bool homogeneous() const;
  // RRV04 §2 assumes loads[i] >= 1 and targets[i] >= 1; its optimality theorems need it.
  bool meets_paper_assumptions() const;
};

// Checks the invariants that the JSON reader also enforces, for instances built in code:
// n >= 2, sizes agree, counts >= 0, sums equal and within 64 bits, costs finite and > 0,
// cost_prev present exactly when bidirectional. Throws InputError naming the field.
void validate_instance(const Instance& instance);

// Refuses (InputError naming the field) an instance whose schedule times might not be finite
// doubles. With S the sum of loads, C the sum of every link cost and c_min the smallest cost,
// T = 8 * S * C bounds (with room to spare) every time a planner writes: a schedule that moves
// each item at most once round the ring along the flows it uses never needs longer than the
// sum over links of |flow| * cost, and no planner uses a flow beyond S + 6 items on a link. The
// largest ratio written (the gap, makespan / lower bound, a positive bound being at least
// c_min) is at most T / c_min. Both must be at most the largest double (about 1.8e308); the
// message names the largest cost (T too large) or the smallest (T / c_min too large).
// Applied by plan and bounds; the validator needs no such rule (it checks each run).
void require_finite_times(const Instance& instance);

// The balanced targets of an instance given without targets: N = the sum of the loads; every
// processor gets floor(N / n), and the first N mod n processors (lowest indices) one more.
std::vector<std::int64_t> average_targets(const std::vector<std::int64_t>& loads);

// Imbalances delta_i = loads[i] - targets[i] (each fits in 64 bits since counts are >= 0).
std::vector<std::int64_t> imbalances(const Instance& instance);

// prefix[i] = delta_0 + ... + delta_i. prefix[n-1] = 0. |prefix[i]| <= sum of loads, so no
// overflow for a validated instance. The imbalance of the slice C_{k,l} (k..l clockwise) is
// prefix[l] - prefix[k-1], with prefix[-1] read as prefix[n-1] = 0; this also holds for slices
// that wrap around because the total is 0.
std::vector<std::int64_t> prefix_imbalances(const Instance& instance);

// A run of `count` items from `from` over direction `dir`: item j occupies the sender's send port
// and the receiver's receive port during [start + j*p, start + j*p + c), with c the link cost and
// p = period when period > 0, else p = c. The receiver holds item j from start + j*p + c on.
struct Run {
  std::int64_t from = 0;
  Direction dir = Direction::next;
  double start = 0.0;
  std::int64_t count = 0;
  double period = 0.0;  // 0: back to back (p = c)
};

// One term of a lower bound: a lemma or system of the papers ("lemma12", "system6") or the
// exhaustive search ("exact"), and its value; std::nullopt when the term was skipped (Lemma 12
// beyond its size limit).
struct BoundTerm {
  std::string name;
  std::optional<double> value;
};

// A planner's schedule and its claims (PlanClaims: makespan, lower_bound, optimal and how it was
// proven, notes). lower_bound is the largest of bound_terms, the terms the planner established.
struct Schedule : PlanClaims {
  std::vector<std::int64_t> flows;  // flows[i]: net items over the link i -> succ(i)
  std::vector<Run> transfers;
  // RRV04 §6: whether the schedule is light (every processor sends only items it holds at the
  // start). Known to the light planners only; std::nullopt elsewhere.
  std::optional<bool> light;
  std::vector<BoundTerm> bound_terms;
};

// Latest end of any item of the runs (0 when there is none). Runs with count <= 0 are ignored.
double schedule_makespan(const Instance& instance, const std::vector<Run>& runs);

// Net flows implied by the runs: items sent next over link i count +, items sent prev by
// succ(i) count -. Uses 128-bit accumulation; throws std::overflow_error if a result leaves
// 64 bits.
std::vector<std::int64_t> flows_of_runs(const Instance& instance, const std::vector<Run>& runs);

}  // namespace redist::ring
