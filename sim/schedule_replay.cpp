#include "sim/schedule_replay.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>
#include <utility>

namespace redist::sim {
namespace {

// Sorts a port's items by planned start (ties: creation order, i.e. run then index in the run).
void order_port(std::vector<std::size_t>& ids, const std::vector<ScheduleReplay::Item>& items) {
  std::sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(items[a].planned_start, a) < std::tie(items[b].planned_start, b);
  });
}

}  // namespace

ScheduleReplay::ScheduleReplay(const ring::Instance& instance, const ring::Schedule& schedule)
    : ScheduleReplay(instance, schedule, std::vector<std::int64_t>(instance.size(), 1),
                     std::vector<std::int64_t>(instance.size(), 1)) {}

ScheduleReplay::ScheduleReplay(const ring::Instance& instance, const ring::Schedule& schedule,
                               const std::vector<std::int64_t>& chunk_next,
                               const std::vector<std::int64_t>& chunk_prev)
    : instance_(instance),
      send_(instance.size()),
      receive_(instance.size()),
      held_(instance.loads) {
  for (const ring::Run& run : schedule.transfers) {
    const auto from = static_cast<std::size_t>(run.from);
    const double pace = run.period > 0 ? run.period : instance.cost(from, run.dir);
    const std::int64_t chunk = std::max<std::int64_t>(
        1, run.dir == ring::Direction::next ? chunk_next[from] : chunk_prev[from]);
    for (std::int64_t j = 0; j < run.count; j += chunk) {
      const std::size_t id = items_.size();
      items_.push_back({from, instance.receiver(from, run.dir), run.dir,
                        run.start + static_cast<double>(j) * pace, std::min(chunk, run.count - j)});
      send_[from].order.push_back(id);
      receive_[items_.back().to].order.push_back(id);
    }
  }
  for (std::size_t i = 0; i < instance.size(); ++i) {
    order_port(send_[i].order, items_);
    order_port(receive_[i].order, items_);
    candidates_.push_back(i);
  }
}

void ScheduleReplay::try_start(std::size_t processor, std::vector<std::size_t>& started) {
  Port& send = send_[processor];
  if (send.busy || send.next == send.order.size()) return;
  const std::size_t id = send.order[send.next];
  if (held_[processor] < items_[id].count) return;
  Port& receive = receive_[items_[id].to];
  if (receive.busy || receive.order[receive.next] != id) return;
  send.busy = receive.busy = true;
  ++send.next;
  ++receive.next;
  held_[processor] -= items_[id].count;
  started.push_back(id);
}

std::vector<std::size_t> ScheduleReplay::take_startable() {
  std::vector<std::size_t> started;
  std::vector<std::size_t> look;
  look.swap(candidates_);
  for (std::size_t processor : look) try_start(processor, started);
  return started;
}

void ScheduleReplay::finish(std::size_t id) {
  const Item& item = items_[id];
  send_[item.from].busy = false;
  receive_[item.to].busy = false;
  held_[item.to] += item.count;
  ++finished_;
  // Who may start now: the sender (its port is free), the receiver (it holds one more), and the
  // receiver's neighbours (its receive port is free).
  for (std::size_t p : {item.from, item.to, instance_.pred(item.to), instance_.succ(item.to)})
    candidates_.push_back(p);
}

double replay_makespan(const ring::Instance& instance, const ring::Schedule& schedule) {
  ScheduleReplay replay(instance, schedule);
  using Event = std::pair<double, std::size_t>;  // (end time, item)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running;
  double now = 0.0;
  while (true) {
    for (std::size_t id : replay.take_startable()) {
      const ScheduleReplay::Item& item = replay.item(id);
      running.push({now + instance.cost(item.from, item.dir), id});
    }
    if (running.empty()) break;
    now = running.top().first;
    replay.finish(running.top().second);
    running.pop();
  }
  return now;
}

}  // namespace redist::sim
