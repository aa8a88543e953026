// Executing a ring schedule on a simulated network (docs/ring-sim.md): item by item, each as soon
// as the one-port and store-and-forward rules of the ring model allow, in the order the schedule
// gives every port.
//
// A ring schedule (redist/ring/model.hpp) says when each item leaves. On a real or simulated
// network transfers take longer or shorter than the model says (latency, routes shared with other
// transfers), so the replay keeps the schedule's order, not its times: every processor sends its
// items in the order of their planned departures and receives them in the order of their planned
// departures, one at a time each way, and sends an item only while it holds one (its own or one
// it has received). An item starts as soon as it is next on its sender's send port and on its
// receiver's receive port, both ports are free and the sender holds an item.
// Guarantees: for a valid schedule (ring::check) every processor ends with its target;
// with messages of one item the replay never deadlocks and, when every item takes exactly its
// link's cost, every item starts no later than planned, so the replay ends no later than the
// schedule's makespan (the planned times satisfy every constraint the replay waits for, and the
// replay is the earliest such solution). With longer messages a relay waits for whole messages.
// Complexity: O(M log M) to order the M messages, O(1) per started or finished message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/ring/model.hpp"

namespace redist::sim {

class ScheduleReplay {
 public:
  struct Item {  // a message of `count` items
    std::size_t from = 0, to = 0;
    ring::Direction dir = ring::Direction::next;
    double planned_start = 0.0;  // of its first item
    std::int64_t count = 1;
  };
  // The instance and a valid schedule of it (runs of count 0 are ignored); messages of one item.
  ScheduleReplay(const ring::Instance& instance, const ring::Schedule& schedule);
  // Messages of up to chunk_next[i] items from processor i to its successor, chunk_prev[i] to
  // its predecessor (each >= 1).
  ScheduleReplay(const ring::Instance& instance, const ring::Schedule& schedule,
                 const std::vector<std::int64_t>& chunk_next,
                 const std::vector<std::int64_t>& chunk_prev);

  // Items that may start now, each returned once; the caller starts them and reports each end.
  std::vector<std::size_t> take_startable();
  void finish(std::size_t item);
  bool done() const { return finished_ == items_.size(); }

  const Item& item(std::size_t id) const { return items_[id]; }
  std::size_t size() const { return items_.size(); }
  // Items each processor holds now.
  const std::vector<std::int64_t>& held() const { return held_; }

 private:
  struct Port {
    std::vector<std::size_t> order;  // item ids in planned order
    std::size_t next = 0;            // the first not yet started
    bool busy = false;
  };
  void try_start(std::size_t processor, std::vector<std::size_t>& started);

  const ring::Instance& instance_;
  std::vector<Item> items_;
  std::vector<Port> send_, receive_;
  std::vector<std::int64_t> held_;
  std::vector<std::size_t> candidates_;  // processors to look at in take_startable
  std::size_t finished_ = 0;
};

// The end of a replay (messages of one item) in which every item takes exactly its link's cost
// (the ring model): at most the schedule's makespan for a valid schedule (see above).
double replay_makespan(const ring::Instance& instance, const ring::Schedule& schedule);

}  // namespace redist::sim
