// The independent validator of star schedules (docs/formats.md, docs/star.md, `redist star check`).
//
// Shares no code with the planners (not even model.cpp's executor): it re-derives the model from
// the instance and the transfers alone. It checks that
//  - every transfer names two distinct workers in [0, m), a send_start >= 0 and a
//    forward_start >= send_start + c[from] (the master forwards a task only once it has arrived);
//  - no transfer starts (send_start or forward_start) after the horizon (horizon(): beyond it a
//    schedule only waits, and the durations of its communications would vanish next to their
//    start times);
//  - one-port at the master: the receptions [a, a + c[s]) are pairwise disjoint, and so are the
//    forwards [b, b + c[r]) (the master may receive and send at once). Every communication of a
//    worker involves the master, so the workers' own one-port rules follow from these two;
//  - the transfers on each of the master's ports, and each worker's sends and receptions, take
//    in all no more time than they cover, the length of their union (overlaps each within the
//    tolerance cannot add up);
//  - holding: worker i sends its own tasks first (its first min(sent, loads[i]) sends in time
//    order: tasks it never computes, since it computes only the tasks it keeps); every later send
//    forwards a received task that has arrived by the send's start and that it does not compute.
//    Of the received tasks that could be forwarded, the latest-arrived ones are taken (which keeps
//    the earliest arrivals for computation); if none is available the schedule is invalid;
//  - computation: worker i computes the own tasks it keeps back to back from 0, then its kept
//    received tasks in arrival order, each from max(previous end, arrival);
//  - `makespan` and `finish` (each when stated) equal the recomputed values; a negative makespan
//    or a finish of the wrong length is a false claim, hence invalid.
// Two times compared (two transfers on a port, an arrival and the send or forward of that task, a
// claim and the recomputed value) may differ by kTimeTolerance of the later one plus the
// instance's resolution (resolution(): kTimeResolution of the longest computation of a worker's
// own tasks, a time the instance fixes), never by a tolerance of the makespan: a transfer far in
// the future widens no other one's. The overlaps are found by an exact sweep with a total order
// (common/overlap.hpp), so that the verdict does not depend on the order of the transfers.
//
// InputError for an instance that breaks the model (validate_instance). Times that overflow a
// double (a forward_start near the largest double plus c, computations piling up beyond it) are
// input errors (InputError naming the transfer), not verdicts: no infinite makespan is ever
// reported.
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

// The latest start of a transfer: 2 (sum_i L_i c_i + L c_max) + max_i L_i w_i + c_max + w_max,
// every task through the master twice over, then the longest computation of a worker's own tasks
// and one more task (the bound model.hpp's validate_instance keeps finite).
double horizon(const Instance& instance);

// kTimeResolution of max_i L_i w_i, the makespan without any transfer: below it no time of a
// schedule of the instance can be told from rounding.
double resolution(const Instance& instance);

// The verdict on `schedule` and its recomputed makespan, comparing the claims `stated` names.
CheckResult check(const Instance& instance, const Schedule& schedule, const Stated& stated = {});

}  // namespace redist::star
