// The independent validator of star schedules (docs/formats.md, docs/star.md, `redist star check`).
//
// Shares no code with the planners (not even model.cpp's executor): it re-derives the model from
// the instance and the transfers alone. With times compared at a relative tolerance of
// kTimeTolerance of the recomputed makespan, it checks that
//  - every transfer names two distinct workers in [0, m), a send_start >= 0 and a
//    forward_start >= send_start + c[from] (the master forwards a task only once it has arrived);
//  - one-port at the master: the receptions [a, a + c[s]) are pairwise disjoint, and so are the
//    forwards [b, b + c[r]) (the master may receive and send at once). Every communication of a
//    worker involves the master, so the workers' own one-port rules follow from these two;
//  - holding: worker i sends its own tasks first (its first min(sent, loads[i]) sends in time
//    order: tasks it never computes, since it computes only the tasks it keeps); every later send
//    forwards a received task that has arrived by the send's start and that it does not compute.
//    Of the received tasks that could be forwarded, the latest-arrived ones are taken (which keeps
//    the earliest arrivals for computation); if none is available the schedule is invalid;
//  - computation: worker i computes the own tasks it keeps back to back from 0, then its kept
//    received tasks in arrival order, each from max(previous end, arrival);
//  - `makespan` and `finish` (each when stated) equal the recomputed values; a negative makespan
//    or a finish of the wrong length is a false claim, hence invalid.
//
// Times that overflow a double (a forward_start near 1.8e308 plus c, computations piling up
// beyond it) are input errors (InputError naming the transfer), not verdicts: no infinite
// makespan is ever reported.
// Complexity: O(n log n + m) time and O(n + m) memory for n transfers and m workers.
#pragma once

#include <string>
#include "redist/common/check.hpp"

#include "redist/star/model.hpp"

namespace redist::star {

// `check` reads at most this many transfers (star and dlt schedules): about 1 GB of memory.
inline constexpr std::int64_t kMaxCheckedTransfers = 10000000;

// Which claims a schedule states: a planner's result states all; a document read from a file
// may leave out makespan or finish (io's reader says which), and check compares only those.
struct Stated {
  bool makespan = true;
  bool finish = true;
};

// The verdict on `schedule` and its recomputed makespan, comparing the claims `stated` names.
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated = {});

}  // namespace redist::star
