// The pure (MPI-free) part of the MPI layer: which flows to execute and, for one rank, which
// global items it sends, forwards, keeps and places, in which order and at which offsets.
//
// Items are numbered globally in "unrolled" coordinates: rank i initially holds
// [start_i, start_i + loads[i]) with start_i = loads[0] + ... + loads[i-1]; a global index g
// denotes item g mod N (N = total). With flows f (f[i] net items over link i -> succ(i)), rank i
// ends with [final_start_i, final_start_i + targets[i]), final_start_i = start_i - f[i-1]
// (f[-1] = f[n-1]); in ring mode the global sequence is thereby rotated right by f[n-1].
//
// Order discipline (the stream order, docs/mpi.md): a rank's items form one contiguous range.
// Items to succ leave from its right end (last item first), items to pred from its left end; a
// forwarder sends its own items first, then the received ones in arrival order. Item k (k = 0,
// 1, ...) of the stream over link i -> succ(i) is thus global index start_{i+1} - 1 - k, and item
// k of the stream over succ(i) -> i is start_{i+1} + k.
//
// Guarantee: for flows that balance the instance (flows[i] - flows[i-1] = delta_i), every
// mapping below is consistent: what rank i sends as item k is what its neighbour receives as item
// k, every item is placed once at its final offset. Complexity: O(n) to build, O(1) per query.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redist/ring/model.hpp"

namespace redist::mpi {

enum class Mode : std::uint8_t {
  ring,    // the link n-1 -> 0 may carry items; the global sequence may be rotated
  linear,  // flows[n-1] = 0: the global order starting at rank 0 is kept
};

const char* to_string(Mode mode);

// The flows to execute and what the model predicts for them.
struct FlowPlan {
  std::vector<std::int64_t> flows;  // flows[i]: net items over link i -> succ(i)
  double makespan = 0.0;            // the model's makespan of the schedule behind the flows
  std::string algorithm;            // planner used
  std::int64_t rotation = 0;        // flows[n-1]: the new sequence starts at global index -rotation
  std::vector<ring::Run> transfers;  // the model's schedule of these flows (one-port ordering)
};

// The model's departure times of one rank's outgoing items over one direction, in sending order
// (built from the schedule's runs of that rank and direction, which never overlap in time under
// the one-port model). Used to send in the model's order when a rank sends both ways.
// Complexity: O(R log R) to build for R runs of the rank, O(log R) per query.
class DepartureTimes {
 public:
  DepartureTimes() = default;
  DepartureTimes(const ring::Instance& instance, const std::vector<ring::Run>& runs,
                 std::int64_t rank, ring::Direction dir);
  // Departure of item k (0-based); +infinity beyond the items of the runs.
  double at(std::int64_t k) const;
  // Number of items that depart at or before t.
  std::int64_t count_until(double t) const;
  // Times at which the spacing of departures may change: the first and last departure of every
  // run.
  std::vector<double> breakpoints() const;

 private:
  std::vector<ring::Run> runs_;      // sorted by start
  std::vector<std::int64_t> first_;  // index of the first item of each run
  double cost_ = 1.0;
};

// Ring mode: ring::plan(instance, {algorithm}); a full circulation (all flows of one sign, which
// would make every rank wait for its successor) is removed, and the makespan re-derived with
// execute_flows_asap in that case. Linear mode: the unique flows with flows[n-1] = 0 (prefix
// imbalances), scheduled as soon as possible (ring/flow_executor.hpp); on a unidirectional ring
// this needs every prefix imbalance >= 0, else InputError. Deterministic.
// Complexity: that of the planner (ring mode) or O(M log n), M = items moved (linear mode).
FlowPlan plan_flows(const ring::Instance& instance, Mode mode, std::string_view algorithm = "auto");

// The two item streams through one rank. `right`: received from pred, sent to succ (items move
// towards higher indices). `left`: received from succ, sent to pred.
struct Stream {
  std::int64_t in = 0;       // items received
  std::int64_t out = 0;      // items sent
  std::int64_t own_out = 0;  // sent items that the rank held at the start (sent first)
  std::int64_t fwd = 0;      // sent items that were received first (received items k < fwd)
  std::int64_t placed = 0;   // received items kept (received items k >= fwd)
  // Sent items that the receiving neighbour forwards (sent items k < out_fwd): the neighbour's
  // `fwd` on this stream. The link carries them as one ordered sub-stream and the rest (which the
  // neighbour keeps) as another (docs/mpi.md, "two sub-streams per link").
  std::int64_t out_fwd = 0;
};

enum class Side : std::uint8_t { right, left };

struct LocalPlan {
  std::int64_t rank = 0;
  std::int64_t total = 0;        // N, sum of loads
  std::int64_t load = 0;         // items held before
  std::int64_t target = 0;       // items held after
  std::int64_t start = 0;        // unrolled global index of the first item held before
  std::int64_t final_start = 0;  // unrolled global index of the first item held after
  Stream right, left;
  std::int64_t kept = 0;       // own items that stay
  std::int64_t kept_from = 0;  // their offset before (= left.own_out)
  std::int64_t kept_to = 0;    // their offset after (= right.placed)

  const Stream& stream(Side s) const { return s == Side::right ? right : left; }
  // Offset in the initial block of own item k' of the outgoing stream (k' < own_out).
  std::int64_t own_offset(Side s, std::int64_t k) const {
    return s == Side::right ? load - 1 - k : k;
  }
  // Offset in the final block of received item k (k >= fwd).
  std::int64_t placed_offset(Side s, std::int64_t k) const {
    return s == Side::right ? right.placed - 1 - (k - right.fwd) : kept_to + kept + (k - left.fwd);
  }
  // Unrolled global index of outgoing item k and of incoming item k.
  std::int64_t global_out(Side s, std::int64_t k) const {
    return s == Side::right ? start + load - 1 - k : start + k;
  }
  std::int64_t global_in(Side s, std::int64_t k) const {
    return s == Side::right ? start - 1 - k : start + load + k;
  }
};

// A range of consecutive items of one rank's outgoing stream that all end on the same rank,
// `hops` links away (1: the neighbour keeps them). A stream's groups partition it, farthest
// first: the items a neighbour forwards are the first it receives (order discipline above).
// Each group crosses the link as its own ordered sub-stream (docs/mpi.md).
struct Group {
  std::int64_t first = 0, last = 0;  // positions [first, last) in the stream
  std::int64_t hops = 1;
};

// The groups of `rank`'s outgoing stream on `side`, in stream order (hops decreasing); empty when
// it sends nothing that way. The incoming groups of a rank are its upstream neighbour's outgoing
// groups. Throws InputError if the flows do not balance the instance.
// Complexity: O(length of the longest chain of forwarders) <= O(n).
std::vector<Group> outgoing_groups(const ring::Instance& instance,
                                   const std::vector<std::int64_t>& flows, std::int64_t rank,
                                   Side side);

// The most items of incoming group `group` (items of the link entering `p.rank` on `side`) that
// the schedule `runs` has `p.rank` hold at once between their arrival and their departure as
// positions own_out + k of its outgoing stream: what it must stage to follow the schedule without
// slowing its upstream link. 0 for a kept group. Item k arrives at its upstream departure plus the
// link cost. Complexity: O(R log R) for R runs of the two ranks.
std::int64_t peak_forwarded(const ring::Instance& instance, const std::vector<ring::Run>& runs,
                            const LocalPlan& p, Side side, const Group& group);

// Throws InputError if the flows do not balance the instance or a rank would end negative.
LocalPlan make_local_plan(const ring::Instance& instance, const std::vector<std::int64_t>& flows,
                          std::int64_t rank);

// A message carries the items of one segment [a, b) of a stream (items a..b-1, b - a <= K,
// segments at multiples of K) in increasing global order: the position of item k in it.
inline std::int64_t position_in_segment(Side s, std::int64_t a, std::int64_t b, std::int64_t k) {
  return s == Side::right ? b - 1 - k : k - a;
}

// x mod N in [0, N).
inline std::int64_t wrap(std::int64_t x, std::int64_t n) {
  const std::int64_t r = x % n;
  return r < 0 ? r + n : r;
}

}  // namespace redist::mpi
