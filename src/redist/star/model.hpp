// STAR §3.1 / docs/star.md: the tasks model on star (master-worker) platforms.
//
// A master and m workers. Worker i holds loads[i] identical independent tasks, computes one in
// w[i] and sends or receives one to or from the master in c[i]. A redistributed task goes from
// worker s to the master during [send_start, send_start + c[s]) and from the master to worker r
// during [forward_start, forward_start + c[r]). Makespan = latest end of computation.
//
// This header holds the data types shared by planners, validator and JSON, plus the planners'
// executor `finish_times` (the validator in validate.hpp re-derives everything on its own).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redist/common/result.hpp"

namespace redist::star {

struct Instance {
  std::vector<double> c;            // time to send/receive one task to/from the master, > 0
  std::vector<double> w;            // time to compute one task, > 0
  std::vector<std::int64_t> loads;  // initial tasks, >= 0
  std::size_t workers() const { return loads.size(); }
};

struct Transfer {
  std::int64_t from = 0;     // sending worker s
  std::int64_t to = 0;       // receiving worker r
  double send_start = 0;     // a: s -> master during [a, a + c[s])
  double forward_start = 0;  // b: master -> r during [b, b + c[r]), b >= a + c[s]
};

// A schedule with its claims (makespan: the latest end of a computation; lower_bound, optimal and
// proof as the planner established them, planner.hpp).
struct Schedule : PlanClaims {
  std::vector<Transfer> transfers;
  std::vector<double> finish;  // per worker: end of its last computation (0 when it computes none)
};

// Throws InputError (path relative to the instance object, e.g. "c[2]") when the instance breaks
// the model: sizes differ, no worker, a non-finite or non-positive c or w, a negative load, a total
// load beyond 2^53 (task counts must stay exact in double time arithmetic), a time L*w that
// is not finite, a horizon H = 2 (sum_i L_i c_i + L c_max) + max_i L_i w_i + c_max + w_max (no
// time a planner or the validator forms exceeds it) that overflows, or a c or w below
// kTimeResolution H
// (it would be rounded away when added to a time near H).
void validate_instance(const Instance& instance);

// Platform classes of STAR §4 (exact equality of the values).
bool homogeneous_links(const Instance& instance);
bool homogeneous_computation(const Instance& instance);

// The planners' executor: fills `finish` and `makespan` of a schedule whose transfers never
// forward a received task. Worker i computes its loads[i] - sent_i own tasks back to back from 0,
// then each received task, in arrival order, from max(previous end, arrival). O(m + n log n).
void finish_times(const Instance& instance, Schedule& schedule);

// One task relayed from `sender` to `receiver` in the normal form of STAR Theorem 1: sent as soon
// as the master's receive port is free (master_in), forwarded as soon as it has arrived and the
// master's send port is free (master_out); advances both ports. `c` as Instance::c.
Transfer relay_task(const std::vector<double>& c, std::size_t sender, std::size_t receiver,
                    double& master_in, double& master_out);

// The schedule with no transfer (every worker computes its own tasks).
Schedule no_transfer_schedule(const Instance& instance, const std::string& algorithm);

}  // namespace redist::star
