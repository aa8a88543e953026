// The pure (MPI-free) part of the MPI layer: which flows to execute and, for one rank, which
// global items it sends, forwards, keeps and places, in which order and at which offsets.
//
// Items are numbered globally in "unrolled" coordinates: rank i initially holds
// [start_i, start_i + loads[i]) with start_i = loads[0] + ... + loads[i-1]; a global index g
// denotes item g mod N (N = total). With flows f (f[i] net items over link i -> succ(i)), rank i
// ends with [final_start_i, final_start_i + targets[i]), final_start_i = start_i - f[i-1]
// (f[-1] = f[n-1]); in ring mode the global sequence is thereby rotated right by f[n-1].
//
// Order discipline (docs/mpi.md): a rank's items form one contiguous range at all times. Items
// to succ leave from its right end (last item first), items to pred from its left end; a
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
};

// Ring mode: plan_ring(instance, algorithm); a full circulation (all flows of one sign, which
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
