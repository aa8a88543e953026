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

}  // namespace redist::exchange
