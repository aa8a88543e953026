#include "redist/exchange/whole.hpp"

#include <algorithm>
#include <queue>
#include <vector>

#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::exchange {
namespace {

class DenseSchedule {
 public:
  explicit DenseSchedule(const Instance& in)
      : in_(in),
        cluster_(cluster_of(in)),
        by_sender_(in.nodes),
        by_receiver_(in.nodes),
        send_busy_(in.nodes, false),
        recv_busy_(in.nodes, false),
        started_(in.messages.size(), false) {
    std::vector<std::size_t> order(in.messages.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return in.duration(in.messages[a]) > in.duration(in.messages[b]);
    });
    for (const std::size_t k : order) {
      by_sender_[static_cast<std::size_t>(in.messages[k].from)].push_back(k);
      by_receiver_[static_cast<std::size_t>(in.messages[k].to)].push_back(k);
    }
    free_transfers_ = in.backbone ? in.backbone->transfers : 0;
  }

  std::vector<Piece> run() {
    for (std::size_t i = 0; i < in_.nodes; ++i) start_from_sender(i, 0.0);
    while (!running_.empty()) {
      const double now = running_.top().first;
      std::vector<std::size_t> ended;
      while (!running_.empty() && running_.top().first == now) {
        ended.push_back(running_.top().second);
        running_.pop();
      }
      for (const std::size_t k : ended) release(k);
      for (const std::size_t k : ended) {
        start_from_sender(static_cast<std::size_t>(in_.messages[k].from), now);
        start_from_receiver(static_cast<std::size_t>(in_.messages[k].to), now);
      }
      if (in_.backbone) {
        for (std::size_t i = 0; i < in_.nodes; ++i) start_from_sender(i, now);
      }
    }
    return std::move(pieces_);
  }

 private:
  bool crosses(const Message& m) const {
    return !cluster_.empty() &&
           cluster_[static_cast<std::size_t>(m.from)] != cluster_[static_cast<std::size_t>(m.to)];
  }
  bool can_start(std::size_t k) const {
    const Message& m = in_.messages[k];
    return !started_[k] && !send_busy_[static_cast<std::size_t>(m.from)] &&
           !recv_busy_[static_cast<std::size_t>(m.to)] && (!crosses(m) || free_transfers_ > 0);
  }
  void start(std::size_t k, double now) {
    const Message& m = in_.messages[k];
    started_[k] = true;
    send_busy_[static_cast<std::size_t>(m.from)] = true;
    recv_busy_[static_cast<std::size_t>(m.to)] = true;
    if (crosses(m)) --free_transfers_;
    pieces_.push_back({m.from, m.to, now, static_cast<double>(m.bytes)});
    running_.push({now + in_.duration(m), k});
  }
  void release(std::size_t k) {
    const Message& m = in_.messages[k];
    send_busy_[static_cast<std::size_t>(m.from)] = false;
    recv_busy_[static_cast<std::size_t>(m.to)] = false;
    if (crosses(m)) ++free_transfers_;
  }
  // Starts the first waiting message of `list` that can start; drops started ones from its front.
  void start_first(std::vector<std::size_t>& list, std::size_t& head, double now) {
    while (head < list.size() && started_[list[head]]) ++head;
    for (std::size_t pos = head; pos < list.size(); ++pos) {
      if (can_start(list[pos])) {
        start(list[pos], now);
        return;
      }
    }
  }
  void start_from_sender(std::size_t i, double now) {
    if (sender_head_.empty()) sender_head_.assign(in_.nodes, 0);
    if (!send_busy_[i]) start_first(by_sender_[i], sender_head_[i], now);
  }
  void start_from_receiver(std::size_t j, double now) {
    if (receiver_head_.empty()) receiver_head_.assign(in_.nodes, 0);
    if (!recv_busy_[j]) start_first(by_receiver_[j], receiver_head_[j], now);
  }

  const Instance& in_;
  std::vector<std::uint8_t> cluster_;
  std::vector<std::vector<std::size_t>> by_sender_, by_receiver_;
  std::vector<std::size_t> sender_head_, receiver_head_;
  std::vector<bool> send_busy_, recv_busy_, started_;
  std::int64_t free_transfers_ = 0;
  using Event = std::pair<double, std::size_t>;  // (end, message)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running_;
  std::vector<Piece> pieces_;
};

}  // namespace

Plan plan_whole(const Instance& instance) {
  validate_instance(instance);
  Plan plan;
  plan.algorithm = "whole";
  plan.pieces = DenseSchedule(instance).run();
  for (const Piece& p : plan.pieces) {
    const Message m{p.from, p.to, static_cast<std::int64_t>(p.bytes)};
    plan.makespan = std::max(plan.makespan, p.start + instance.duration(m));
  }
  plan.bounds = bounds(instance);
  plan.lower_bound = plan.bounds.lower_bound;
  if (at_most(plan.makespan, plan.lower_bound)) plan.prove_optimal(Proof::lower_bound);
  return plan;
}

}  // namespace redist::exchange
