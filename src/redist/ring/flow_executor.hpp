// A valid one-port schedule for any given flows on any ring: event-driven list scheduling.
//
// Given net flows (flows[i] items over link i -> succ(i), negative for the other way), every
// processor sends max(flows[i], 0) items to succ(i) and max(-flows[i-1], 0) items to pred(i).
// Whenever a processor's send port is free, it holds an item and one of its links still owes
// items to a receiver whose receive port is free, it starts sending, as early as possible.
// Priority between the two directions (SendPriority): by default the receiver with more items left
// to receive first (the best of the simple rules we compared), ties to `next`.
//
// Guarantee: a valid schedule whenever the flows balance every processor (targets >= 0) and
// some item exists when flows are non-zero; no optimality claim. Consecutive items of one link
// that leave at a fixed pace are merged into one run with a period.
// Complexity: O(M log n) for M = sum of |flows| items moved (item-level event simulation);
// the caller bounds M (see max_items).
#pragma once

#include <cstdint>
#include <vector>

#include "redist/ring/model.hpp"

namespace redist::ring {

// Which direction a processor free to send both ways serves first.
enum class SendPriority {
  receiver_backlog,  // the receiver with more items left to receive (ties: next)
  next_first,
  prev_first,
};

// Throws InputError when the flows do not balance the instance, or when the number of items to
// move exceeds max_items (the simulation is item by item).
std::vector<Run> execute_flows_asap(const Instance& instance,
                                    const std::vector<std::int64_t>& flows,
                                    std::int64_t max_items = 200'000'000,
                                    SendPriority priority = SendPriority::receiver_backlog);

}  // namespace redist::ring
