// The independent validator of exchange plans (`redist exchange check`, docs/exchange.md). It
// shares no code with the planners and recomputes everything from the instance and the pieces.
//
// A plan is valid when:
// - every piece goes from a node to another, in range, starts at a finite time >= 0 and carries a
//   finite number of bytes > 0 along an ordered pair that has a message;
// - the pieces of each message add up to its bytes (relative kBytesTolerance): every byte is
//   delivered exactly once;
// - a piece of b bytes from i to j lasts latency + b / min(send_bandwidth[i], recv_bandwidth[j]);
//   no two pieces overlap on a node's send port, nor on a node's receive port;
// - the pieces of each port take in all no more time than they cover (the length of their
//   union; overlaps each within the tolerance cannot add up, whatever gaps the port has);
// - every piece starts by the horizon (horizon(): every piece sent one after the other);
// - with a backbone, at no instant do more than `transfers` crossing pieces run;
// - the claims it states hold: makespan equal to the recomputed one, lower_bound at most it, and
//   `optimal` only with the makespan at its lower bound.
// Two pieces may share a port for kTimeTolerance of the latest instant they share (a tolerance of
// the times compared, so that no far-away piece can widen it) plus the instance's resolution:
// kTimeResolution of its busiest port (the time its messages keep the busiest send or receive port
// busy, recomputed here), below which no time of any plan of the instance can be told from
// rounding; the planners round to finer than that (preemptive's ticks are 2^-50 of the ports
// bound). Claims are compared at kTimeTolerance of the makespan. The verdict does not depend on
// the order of the pieces (ties are broken by start, end and index). The allowance, the sweep and
// the busy time are those of every validator (common/overlap.hpp).
// Complexity: O(P log P + messages) for P pieces. An invalid verdict's entries
// (CheckResult::entries) are pieces: the faulty piece, the pieces of a message delivered wrong, the
// two pieces that overlap on a port, or the crossing pieces running when the backbone is exceeded.
#pragma once

#include "redist/common/check.hpp"
#include "redist/exchange/model.hpp"

namespace redist::exchange {

// Which claims a plan states: a plan document may leave some out; a planner's result states all.
struct StatedClaims {
  bool makespan = true;
  bool lower_bound = true;
  bool optimal = true;
};

// Bytes of a message and the sum of its pieces may differ by this fraction of the message: a piece
// is a product of a rate and a duration, each rounding by about 1e-16 relative.
inline constexpr double kBytesTolerance = 1e-9;

// The longest time the messages keep one port busy (sends or receives), latency included.
double busiest_port(const Instance& instance);

// The latest start of a piece of a plan of `pieces` pieces: the messages' durations and one
// latency per piece, one after the other.
double horizon(const Instance& instance, std::size_t pieces);

CheckResult check(const Instance& instance, const Plan& plan, const StatedClaims& stated = {});

}  // namespace redist::exchange
