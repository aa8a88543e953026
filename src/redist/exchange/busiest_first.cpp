#include "redist/exchange/busiest_first.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "redist/exchange/limits.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/whole.hpp"

namespace redist::exchange {
namespace {

// A message with its priority. `first_served(a, b)`: a starts before b (larger priority; on a
// tie, the earlier message).
using Keyed = std::pair<double, std::uint32_t>;
bool first_served(const Keyed& a, const Keyed& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}
struct ServedLater {
  bool operator()(const Keyed& a, const Keyed& b) const { return first_served(b, a); }
};

class BusiestFirst {
 public:
  explicit BusiestFirst(const Instance& in)
      : in_(in),
        by_sender_(in.nodes),
        by_receiver_(in.nodes),
        send_busy_(in.nodes, false),
        recv_busy_(in.nodes, false),
        started_(in.messages.size(), false),
        crossing_(in.messages.size(), false),
        held_(in.messages.size(), false),
        seconds_(in.messages.size()),
        send_left_(in.nodes, 0.0),
        recv_left_(in.nodes, 0.0) {
    const std::vector<std::uint8_t> cluster = cluster_of(in);
    for (std::uint32_t k = 0; k < in.messages.size(); ++k) {
      const auto i = static_cast<std::size_t>(in.messages[k].from);
      const auto j = static_cast<std::size_t>(in.messages[k].to);
      seconds_[k] = in.duration(in.messages[k]);
      crossing_[k] = crosses(cluster, in.messages[k].from, in.messages[k].to);
      by_sender_[i].push_back(k);
      by_receiver_[j].push_back(k);
      send_left_[i] += seconds_[k];
      recv_left_[j] += seconds_[k];
      if (crossing_[k]) backbone_left_ += seconds_[k];
    }
    if (in.backbone) {
      transfers_ = static_cast<double>(in.backbone->transfers);
      free_transfers_ = in.backbone->transfers;
    }
  }

  std::vector<Piece> run() {
    std::vector<std::uint32_t> ready(in_.messages.size());
    std::iota(ready.begin(), ready.end(), std::uint32_t{0});
    start_ready(ready, 0.0);
    while (!running_.empty()) {
      const double now = running_.top().first;
      std::vector<std::uint32_t> ended;
      while (!running_.empty() && running_.top().first == now) {
        ended.push_back(running_.top().second);
        running_.pop();
      }
      for (const std::uint32_t k : ended) release(k);
      ready.clear();
      for (const std::uint32_t k : ended) {
        const Message& m = in_.messages[k];
        collect(by_sender_[static_cast<std::size_t>(m.from)], send_busy_[m.from], ready);
        collect(by_receiver_[static_cast<std::size_t>(m.to)], recv_busy_[m.to], ready);
      }
      start_ready(ready, now);
    }
    return std::move(pieces_);
  }

 private:
  // The unstarted seconds of k's two ports.
  double port_work(std::uint32_t k) const {
    const Message& m = in_.messages[k];
    return send_left_[static_cast<std::size_t>(m.from)] +
           recv_left_[static_cast<std::size_t>(m.to)];
  }
  double priority(std::uint32_t k) const {
    return port_work(k) + (crossing_[k] ? backbone_left_ / transfers_ : 0.0);
  }
  // Not started, and both of its ports are free.
  bool ready(std::uint32_t k) const {
    const Message& m = in_.messages[k];
    return !started_[k] && !send_busy_[m.from] && !recv_busy_[m.to];
  }

  // The waiting messages of a port that just freed whose other port is free too; drops the
  // started ones from its list.
  void collect(std::vector<std::uint32_t>& list, bool busy, std::vector<std::uint32_t>& out) {
    if (busy) return;
    std::size_t kept = 0;
    for (const std::uint32_t k : list) {
      if (started_[k]) continue;
      list[kept++] = k;
      if (ready(k)) out.push_back(k);
    }
    list.resize(kept);
  }

  // Starts the ready messages in order of priority, merged with the crossing messages held back
  // for want of a transfer while transfers are free.
  void start_ready(const std::vector<std::uint32_t>& ready_now, double now) {
    std::vector<Keyed> queue;
    queue.reserve(ready_now.size());
    for (const std::uint32_t k : ready_now) queue.emplace_back(priority(k), k);
    std::sort(queue.begin(), queue.end(), first_served);
    queue.erase(std::unique(queue.begin(), queue.end()), queue.end());
    std::size_t next = 0;
    while (true) {
      while (next < queue.size() && !ready(queue[next].second)) ++next;
      const std::optional<Keyed> held = free_transfers_ > 0 ? first_held() : std::nullopt;
      if (next == queue.size() && !held) return;
      const bool take_held = held && (next == queue.size() || first_served(*held, queue[next]));
      const std::uint32_t k = take_held ? held->second : queue[next++].second;
      if (take_held) {
        held_queue_.pop();
        held_[k] = false;
      }
      if (crossing_[k] && free_transfers_ == 0) {
        hold(k);
      } else {
        start(k, now);
      }
    }
  }

  // A ready crossing message waits for a transfer in held_queue_, keyed by its port work: every
  // held message crosses, so the backbone's share of the priority is the same for all of them.
  void hold(std::uint32_t k) {
    if (held_[k]) return;
    held_[k] = true;
    held_queue_.emplace(port_work(k), k);
  }
  // The held message to serve first, with its current priority. Messages no longer ready leave
  // the queue (they are collected again when a port of theirs frees). A port's work changes only
  // when it starts a message, so a ready message's key is stale only if a port of its ran a
  // message since it was held; keys only decrease, so such a top goes back with its current key.
  std::optional<Keyed> first_held() {
    while (!held_queue_.empty()) {
      const Keyed top = held_queue_.top();
      if (!ready(top.second)) {
        held_queue_.pop();
        held_[top.second] = false;
        continue;
      }
      const double work = port_work(top.second);
      if (work == top.first) return Keyed{priority(top.second), top.second};
      held_queue_.pop();
      held_queue_.emplace(work, top.second);
    }
    return std::nullopt;
  }

  void start(std::uint32_t k, double now) {
    const Message& m = in_.messages[k];
    started_[k] = true;
    send_busy_[m.from] = true;
    recv_busy_[m.to] = true;
    send_left_[static_cast<std::size_t>(m.from)] -= seconds_[k];
    recv_left_[static_cast<std::size_t>(m.to)] -= seconds_[k];
    if (crossing_[k]) {
      backbone_left_ -= seconds_[k];
      --free_transfers_;
    }
    pieces_.push_back({m.from, m.to, now, static_cast<double>(m.bytes)});
    running_.emplace(now + seconds_[k], k);
  }
  void release(std::uint32_t k) {
    const Message& m = in_.messages[k];
    send_busy_[m.from] = false;
    recv_busy_[m.to] = false;
    if (crossing_[k]) ++free_transfers_;
  }

  const Instance& in_;
  std::vector<std::vector<std::uint32_t>> by_sender_, by_receiver_;  // waiting, instance order
  std::vector<bool> send_busy_, recv_busy_, started_, crossing_, held_;
  std::vector<double> seconds_;                // latency + bytes / rate of each message
  std::vector<double> send_left_, recv_left_;  // per node: seconds of its unstarted messages
  double backbone_left_ = 0.0;                 // seconds of the unstarted crossing messages
  double transfers_ = 1.0;
  std::int64_t free_transfers_ = 0;
  std::priority_queue<Keyed, std::vector<Keyed>, ServedLater> held_queue_;
  using Event = std::pair<double, std::uint32_t>;  // (end, message)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running_;
  std::vector<Piece> pieces_;
};

}  // namespace

Plan plan_busiest_first(const Instance& instance) {
  require_messages_times_degree(instance, "busiest-first", kMaxBusiestFirstMessagesTimesDegree,
                                "each port reads its waiting messages whenever it frees");
  validate_instance(instance);
  return whole_message_plan(instance, "busiest-first", BusiestFirst(instance).run());
}

}  // namespace redist::exchange
