// `steps`: the simplest step heuristic, a non-preemptive baseline in the spirit of the
// comparisons of Cohen, Jeannot, Padoy and Wagner (IEEE TPDS 17(10), 2006) (docs/exchange.md,
// "KPBS"). Not an algorithm of theirs.
//
// Every message is sent whole in one step. The messages are sorted by decreasing duration; each
// step takes, in that order, every remaining message whose sender and receiver are still free in
// the step, up to k messages (redist/exchange/steps.hpp, step_capacity). A step lasts the latency
// plus its longest message.
// Guarantee: none beyond validity; each step's longest message is its first and belongs to no
// other step, so the makespan is at most the sum of all durations. The plan states eta and the
// step count (Plan::steps); optimal when it meets bounds(instance).lower_bound.
// Complexity: O(m log m + m S) for S steps (each step reads the remaining messages until it is full
// or holds every node that still has one). S >= Delta, the most messages of one node: instances
// whose m x Delta passes kMaxStepsMessagesTimesDegree are refused before any work (limits.hpp;
// OptionError at "algorithm").
#pragma once

#include "redist/exchange/model.hpp"

namespace redist::exchange {

Plan plan_steps(const Instance& instance);

}  // namespace redist::exchange
