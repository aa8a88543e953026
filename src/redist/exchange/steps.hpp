// Step schedules: the communication model of the step algorithms (Cohen, Jeannot, Padoy and
// Wagner's KPBS; Desprez et al.'s block-cyclic schedules; ScaLAPACK's caterpillar).
//
// A step is a set of pieces that start together, at most one per send port and one per receive
// port (a matching of the message graph), and at most `transfers` crossing pieces with a backbone.
// The steps run one after the other: a step lasts the longest of its pieces
// (latency + bytes / rate), and the next starts when it ends. A step schedule is therefore one of
// the piece schedules the exchange family allows (the validator checks it as any other plan), and
// its makespan is the sum over steps of (latency + the longest piece's bytes / rate).
#pragma once

#include <cstddef>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

// `bytes` of instance.messages[message], sent during one step.
struct StepPiece {
  std::size_t message = 0;
  double bytes = 0.0;
};

using Step = std::vector<StepPiece>;

// The pieces of `steps` laid end to end from time 0, and the makespan. Empty steps take no time.
// Sets `pieces` and `makespan` only (the caller sets algorithm, bounds and claims).
// Complexity: O(total pieces).
Plan lay_out_steps(const Instance& instance, const std::vector<Step>& steps);

// The KPBS model of the step algorithms (Cohen, Jeannot, Padoy and Wagner;
// redist/exchange/kpbs.hpp): a step holds at most k pieces, where k is the backbone's transfers,
// every piece of the step counted against it whether it crosses or not (conservative: a step
// schedule of this model is valid in ours), and no more than min(n1, n2) for n1 nodes that send and
// n2 that receive (a matching holds no more). Without a backbone k = min(n1, n2): the constraint is
// void. 0 when there is no message. Complexity: O(p + m).
std::size_t step_capacity(const Instance& instance);

// Their lower bound on every step schedule of that model: eta = eta_d + latency * eta_s with
// eta_d = max(W, P / k) and eta_s = max(Delta, ceil(m / k)), for W the largest total of
// bytes / rate over a node's sends or receives, P the total over all messages, Delta the most
// messages of one node's sends or receives and m the messages. It holds because each step lasts
// latency plus its longest piece, which is at least the data of every port in it and at least
// 1/k of its total; a message needs a step, and a step holds one message per port and at most k.
// count is 0 (the caller sets it). Complexity: O(p + m).
StepStats step_bound(const Instance& instance);

// The plan of a step algorithm: `steps` laid out (empty steps dropped), the claims (lower_bound
// and optimal from bounds(instance), valid for every piece schedule) and the step statistics
// (left out when a step holds more than step_capacity pieces: eta does not bound such steps).
Plan step_plan(const Instance& instance, const std::vector<Step>& steps, std::string algorithm);

}  // namespace redist::exchange
