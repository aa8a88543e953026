// The independent validator of ring schedules (docs/formats.md, `redist ring check`).
//
// Shares no code with the planners: it re-derives every constraint of the model from the instance
// and the runs alone. Two times compared (two runs on a port, an arrival and the departure of
// that item) may differ by kTimeTolerance of the later one plus the instance's resolution,
// kTimeResolution of busiest_port(): a tolerance of the times compared, never of the makespan, so
// that no run far in the future can widen it. It checks
//  - every run names a processor in [0, n) and a direction valid for the ring (a document's
//    run whose direction was no direction at all is listed in Stated::unknown_directions), has a
//    finite start >= 0, a count >= 0 and, when given, a period >= the link cost;
//  - no run starts after the horizon, the time to run every run one after the other (the sum of
//    their spans, below): beyond it a schedule only waits;
//  - one-port: runs sharing a send port (same sender, either direction) or a receive port (same
//    receiver, either side) have disjoint spans [start, start + (count-1)*p + c), found by an
//    exact sweep whose verdict does not depend on the order of the runs (common/overlap.hpp);
//    and the runs of each port take in all no more time than they cover, the length of their union
//    (overlaps each within the tolerance cannot add up);
//  - holding: no processor ever sends an item it does not hold (an item is held from the end of
//    its reception on; an item received at t may be sent from t on);
//  - every processor ends with its target; `flows`, when stated (Stated::flows), has one
//    entry per processor, each equal to the net flow of the runs over that link;
//  - `makespan`, when stated (Stated::makespan), equals the recomputed latest end of any
//    item (a negative one never does);
//  - a planner's `lower_bound` is at most that makespan, and `optimal` only when the makespan
//    meets it (Stated::bound_claims).
//
// Complexity: O(R log R) time and O(n + R) memory for R runs, independent of the item counts
// (a run of 10^15 items costs the same as a run of one). Holding is checked in item-index space:
// with L the initial load, d_k the k-th departure and a_m the m-th arrival of a processor (each in
// time order), the rule is a_{k-L} <= d_k for every k > L; cutting the indices at run boundaries
// leaves pieces on which d_k - a_{k-L} is linear, so only piece ends are evaluated (plus a binary
// search to name the first failing item).
#pragma once

#include <cstddef>
#include <vector>

#include "redist/common/check.hpp"
#include "redist/ring/model.hpp"

namespace redist::ring {

// What a schedule states besides its runs. A planner's schedule states everything; a schedule
// document read from a file (io::RingScheduleDocument) states only the members it has, and may
// name a direction that is neither "next" nor "prev".
struct Stated {
  bool makespan = true;  // compare `makespan` with the recomputed one
  bool flows = true;     // compare `flows` (every entry) with the runs' net flows
  std::vector<std::size_t> unknown_directions;  // runs whose direction is unknown, increasing
  // Compare lower_bound and optimal with the recomputed makespan: a planner's claims. A document's
  // are not judged (`ring check` compares the runs, flows and makespan only).
  bool bound_claims = true;
};

// The instance's scale: the longest time a port must be busy in any schedule, max over the
// processors of the surplus times its cheapest outgoing link's cost, or the deficit times its
// cheapest incoming link's cost. kTimeResolution of it is the resolution of the validator.
double busiest_port(const Instance& instance);

// The verdict on `schedule` (valid, recomputed makespan, the first reason it is not).
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated);

// The verdict on a planner's schedule: every claim (makespan, flows) is compared.
inline CheckResult check(const Instance& instance, const Schedule& schedule) {
  return check(instance, schedule, Stated{});
}

}  // namespace redist::ring
