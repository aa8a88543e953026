// LAU §3: executing a schedule step by step in the single-send and multi-send modes (docs/lau.md).
// Independent of the closed forms (closed_forms.hpp): tests check that the two agree.
//
// Single-send: each link carries one message with all its load. A node sends all its messages in
// the first step at whose start it holds at least what it sends; a message sent in step k arrives
// at the end of step k. T_s = 1 + the last step in which a message is sent (0 without messages),
// nullopt when some node can never send (deadlock).
// Multi-send: in every step each node sends, on each link it still owes load on, as much as it
// holds (right link first, then left), up to what it still owes; what arrives in step k can be
// sent from step k+1. T_m = the number of steps until nothing is owed; nullopt if a step moves
// nothing while something is owed.
//
// Complexity: single O(n) (event driven: only nodes that just received are re-examined);
// multi O(n * T_m). `max_steps` bounds the multi-send simulation (TooManySteps when exceeded).
//
// trace_single and trace_multi run the same simulations and also list every message sent (what
// the step charts of redist/svg/lau_steps.hpp draw): O(n) and O(n * T_m) messages.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "redist/lau/model.hpp"

namespace redist::lau {

struct TooManySteps : std::runtime_error {
  TooManySteps() : std::runtime_error("multi-send simulation exceeded its step budget") {}
};

Time simulate_single(const Instance& instance, const std::vector<std::int64_t>& flows);
Time simulate_multi(const Instance& instance, const std::vector<std::int64_t>& flows,
                    std::int64_t max_steps = INT64_MAX);

// One message: `amount` units sent in step `step` (from 0) by `sender` to its neighbour `receiver`
// over link `link` (between node link and node link + 1).
struct Message {
  std::int64_t step = 0;
  std::size_t link = 0;
  std::size_t sender = 0, receiver = 0;
  std::int64_t amount = 0;
};

// The simulation's time and every message in step order (on deadlock: those sent before it).
struct Trace {
  Time time;
  std::vector<Message> messages;
};

Trace trace_single(const Instance& instance, const std::vector<std::int64_t>& flows);
Trace trace_multi(const Instance& instance, const std::vector<std::int64_t>& flows,
                  std::int64_t max_steps = INT64_MAX);

}  // namespace redist::lau
