#include "redist/exchange/whole.hpp"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::exchange {
namespace {

constexpr std::uint32_t kNone = 0xffffffffu;
// Up to this many node pairs (p^2), on dense-ish instances (m >= p^2 / 16: long lists), each
// node's scan may look up its free partners directly (two tables of p^2 positions) instead of
// reading its list.
constexpr std::size_t kMaxPairTable = std::size_t{1} << 23;

// Nodes of one side (senders or receivers) whose port is free and that still have a message to
// start: a set with O(1) insertion and removal.
class FreeSet {
 public:
  explicit FreeSet(std::size_t nodes) : index_(nodes, kNone) {}
  void insert(std::size_t v) {
    if (index_[v] != kNone) return;
    index_[v] = static_cast<std::uint32_t>(members_.size());
    members_.push_back(static_cast<std::uint32_t>(v));
  }
  void erase(std::size_t v) {
    if (index_[v] == kNone) return;
    const std::uint32_t last = members_.back();
    members_[index_[v]] = last;
    index_[last] = index_[v];
    members_.pop_back();
    index_[v] = kNone;
  }
  const std::vector<std::uint32_t>& members() const { return members_; }

 private:
  std::vector<std::uint32_t> members_, index_;
};

class DenseSchedule {
 public:
  explicit DenseSchedule(const Instance& in)
      : in_(in),
        by_sender_(in.nodes),
        by_receiver_(in.nodes),
        send_busy_(in.nodes, false),
        recv_busy_(in.nodes, false),
        started_(in.messages.size(), false),
        crossing_(in.messages.size(), false),
        seconds_(in.messages.size()),
        unstarted_sends_(in.nodes, 0),
        unstarted_receives_(in.nodes, 0),
        free_senders_(in.nodes),
        free_receivers_(in.nodes) {
    const std::vector<std::uint8_t> cluster = cluster_of(in);
    for (std::size_t k = 0; k < in.messages.size(); ++k) {
      const Message& m = in.messages[k];
      seconds_[k] = in.duration(m);
      crossing_[k] = crosses(cluster, m.from, m.to);
    }
    std::vector<std::uint32_t> order(in.messages.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<std::uint32_t>(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return seconds_[a] > seconds_[b]; });
    const std::size_t p = in.nodes;
    if (p * p <= kMaxPairTable && 16 * in.messages.size() >= p * p) {
      sender_position_.assign(p * p, kNone);
      receiver_position_.assign(p * p, kNone);
    }
    for (const std::uint32_t k : order) {
      const auto from = static_cast<std::uint32_t>(in.messages[k].from);
      const auto to = static_cast<std::uint32_t>(in.messages[k].to);
      if (!sender_position_.empty()) {
        sender_position_[from * p + to] = static_cast<std::uint32_t>(by_sender_[from].size());
        receiver_position_[to * p + from] = static_cast<std::uint32_t>(by_receiver_[to].size());
      }
      by_sender_[from].push_back({k, to});
      by_receiver_[to].push_back({k, from});
      ++unstarted_sends_[from];
      ++unstarted_receives_[to];
    }
    for (std::size_t v = 0; v < p; ++v) {
      if (unstarted_sends_[v] > 0) free_senders_.insert(v);
      if (unstarted_receives_[v] > 0) free_receivers_.insert(v);
    }
    free_transfers_ = in.backbone ? in.backbone->transfers : 0;
    if (in.backbone) {
      crossing_left_.assign(in.nodes, 0);
      for (std::size_t k = 0; k < in.messages.size(); ++k) {
        if (crossing_[k]) ++crossing_left_[static_cast<std::size_t>(in.messages[k].from)];
      }
      skip_.resize(in.nodes + 1);
      for (std::size_t i = 0; i <= in.nodes; ++i) {
        skip_[i] = static_cast<std::uint32_t>(i < in.nodes && crossing_left_[i] == 0 ? i + 1 : i);
      }
    }
  }

  std::vector<Piece> run() {
    for (std::size_t i = 0; i < in_.nodes; ++i) start_from_sender(i, 0.0);
    while (!running_.empty()) {
      const double now = running_.top().first;
      const bool transfers_were_taken = in_.backbone && free_transfers_ == 0;
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
      // A transfer freed while every transfer was taken may let an idle sender start a crossing
      // message whose ports were already free. Nothing else can start here: a message whose ports
      // are free and that needs no transfer (or finds one free) was started when its last port was
      // freed, or by this scan the last time a transfer was free. So the scan runs only then,
      // visits only the senders that still have a crossing message to start, in order, and stops
      // once every transfer is taken again.
      if (transfers_were_taken) {
        for (std::size_t i = next_crossing_sender(0); i < in_.nodes && free_transfers_ > 0;
             i = next_crossing_sender(i + 1)) {
          start_from_sender(i, now);
        }
      }
    }
    return std::move(pieces_);
  }

 private:
  // A waiting message in a node's list, with the node at its other end.
  struct Entry {
    std::uint32_t message, partner;
  };

  void start(std::size_t k, double now) {
    const Message& m = in_.messages[k];
    started_[k] = true;
    const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
    send_busy_[i] = true;
    recv_busy_[j] = true;
    --unstarted_sends_[i];
    --unstarted_receives_[j];
    free_senders_.erase(i);
    free_receivers_.erase(j);
    if (crossing_[k]) {
      --free_transfers_;
      if (--crossing_left_[static_cast<std::size_t>(m.from)] == 0) {
        skip_[static_cast<std::size_t>(m.from)] = static_cast<std::uint32_t>(m.from) + 1;
      }
    }
    pieces_.push_back({m.from, m.to, now, static_cast<double>(m.bytes)});
    running_.push({now + seconds_[k], k});
  }
  // The first sender from i on that still has a crossing message to start (in_.nodes if none):
  // skip_ links each sender without one to a later sender, compressed as it is followed.
  std::size_t next_crossing_sender(std::size_t i) {
    std::size_t root = i;
    while (root < in_.nodes && skip_[root] != root) root = skip_[root];
    while (i < root) {
      const std::size_t next = skip_[i];
      skip_[i] = static_cast<std::uint32_t>(root);
      i = next;
    }
    return root;
  }
  void release(std::size_t k) {
    const Message& m = in_.messages[k];
    const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
    send_busy_[i] = false;
    recv_busy_[j] = false;
    if (unstarted_sends_[i] > 0) free_senders_.insert(i);
    if (unstarted_receives_[j] > 0) free_receivers_.insert(j);
    if (crossing_[k]) ++free_transfers_;
  }
  // Starts the first waiting message of `list` (the messages of a free port) whose other end is
  // free (`partner_busy`) and, if it crosses, finds a free transfer; drops started ones from its
  // front. The entries carry the other end, so the scan reads the list in order. With a table of
  // positions (`position`: this node's row, indexed by the other end), when the free other ends
  // that still have a message are far fewer than the list's waiting entries, it looks those up
  // instead and starts the one earliest in the list: the same message.
  void start_first(const std::vector<Entry>& list, std::size_t& head,
                   const std::vector<bool>& partner_busy, const FreeSet& free_partners,
                   const std::uint32_t* position, double now) {
    while (head < list.size() && started_[list[head].message]) ++head;
    if (position != nullptr && 4 * free_partners.members().size() < list.size() - head) {
      std::size_t best = list.size();
      for (const std::uint32_t v : free_partners.members()) {
        const std::uint32_t pos = position[v];
        if (pos == kNone || pos < head || pos >= best) continue;
        const std::uint32_t k = list[pos].message;
        if (!started_[k] && (free_transfers_ > 0 || !crossing_[k])) best = pos;
      }
      if (best < list.size()) start(list[best].message, now);
      return;
    }
    for (std::size_t pos = head; pos < list.size(); ++pos) {
      const Entry& e = list[pos];
      if (!partner_busy[e.partner] && !started_[e.message] &&
          (free_transfers_ > 0 || !crossing_[e.message])) {
        start(e.message, now);
        return;
      }
    }
  }
  void start_from_sender(std::size_t i, double now) {
    if (sender_head_.empty()) sender_head_.assign(in_.nodes, 0);
    if (send_busy_[i]) return;
    const std::uint32_t* row =
        sender_position_.empty() ? nullptr : sender_position_.data() + i * in_.nodes;
    start_first(by_sender_[i], sender_head_[i], recv_busy_, free_receivers_, row, now);
  }
  void start_from_receiver(std::size_t j, double now) {
    if (receiver_head_.empty()) receiver_head_.assign(in_.nodes, 0);
    if (recv_busy_[j]) return;
    const std::uint32_t* row =
        receiver_position_.empty() ? nullptr : receiver_position_.data() + j * in_.nodes;
    start_first(by_receiver_[j], receiver_head_[j], send_busy_, free_senders_, row, now);
  }

  const Instance& in_;
  std::vector<std::vector<Entry>> by_sender_, by_receiver_;  // longest first
  std::vector<std::size_t> sender_head_, receiver_head_;
  std::vector<bool> send_busy_, recv_busy_, started_, crossing_;
  std::vector<double> seconds_;  // latency + bytes / rate of each message
  std::vector<std::uint32_t> unstarted_sends_, unstarted_receives_;  // per node
  FreeSet free_senders_, free_receivers_;
  // With p^2 <= kMaxPairTable: the position of message (i, j) in i's list at i * p + j, and in
  // j's list at j * p + i (kNone without such a message).
  std::vector<std::uint32_t> sender_position_, receiver_position_;
  std::int64_t free_transfers_ = 0;
  std::vector<std::size_t> crossing_left_;  // per sender, with a backbone: crossing not started
  std::vector<std::uint32_t> skip_;         // per sender and one past: see next_crossing_sender
  using Event = std::pair<double, std::size_t>;  // (end, message)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> running_;
  std::vector<Piece> pieces_;
};

}  // namespace

Plan whole_message_plan(const Instance& instance, std::string algorithm,
                        std::vector<Piece> pieces) {
  Plan plan;
  plan.algorithm = std::move(algorithm);
  plan.pieces = std::move(pieces);
  for (const Piece& p : plan.pieces) {
    const Message m{p.from, p.to, static_cast<std::int64_t>(p.bytes)};
    plan.makespan = std::max(plan.makespan, p.start + instance.duration(m));
  }
  plan.bounds = bounds(instance);
  plan.lower_bound = plan.bounds.lower_bound;
  if (at_most(plan.makespan, plan.lower_bound.value_or(0.0)))
    plan.prove_optimal(Proof::lower_bound);
  return plan;
}

Plan plan_whole(const Instance& instance) {
  validate_instance(instance);
  return whole_message_plan(instance, "whole", DenseSchedule(instance).run());
}

}  // namespace redist::exchange
