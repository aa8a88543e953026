// The independent validator of ring schedules (docs/formats.md, `redist ring check`).
//
// Shares no code with the planners: it re-derives every constraint of the model from the instance
// and the runs alone. Checks, with times compared at a relative tolerance of kTimeTolerance of the
// makespan:
//  - every run names a processor in [0, n) and a direction valid for the ring (a document's
//    run whose direction was no direction at all is listed in Stated::unknown_directions), has a
//    finite start >= 0, a count >= 0 and, when given, a period >= the link cost;
//  - one-port: runs sharing a send port (same sender, either direction) or a receive port (same
//    receiver, either side) have disjoint spans [start, start + (count-1)*p + c);
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

// The verdict on `schedule` (valid, recomputed makespan, the first reason it is not).
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated);

// The verdict on a planner's schedule: every claim (makespan, flows) is compared.
inline CheckResult check(const Instance& instance, const Schedule& schedule) {
  return check(instance, schedule, Stated{});
}

}  // namespace redist::ring
