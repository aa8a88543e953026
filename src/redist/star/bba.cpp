#include "redist/star/bba.hpp"

#include <algorithm>
#include <optional>
#include <queue>
#include <tuple>

namespace redist::star {

namespace {

enum class State { none, busy, idle };

struct Worker {
  double end = 0;
  std::int64_t kept_own = 0;
  bool sent = false;
  bool received = false;
  State state = State::none;
  std::uint32_t version = 0;
};

// (key, tie, index, version): ordered ascending by std::greater in min-heaps.
using Entry = std::tuple<double, double, std::size_t, std::uint32_t>;
using MinHeap = std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

// A receiver candidate: (the time it would finish with one more task, its end now, its index).
using Candidate = std::tuple<double, double, std::size_t>;

// BBA's state (STAR §4.1): each worker's end and role, the master's ports, and the heaps of
// senders (largest end first), busy receivers (by end + w) and idle ones (by c + w), with the
// thresholds at which busy receivers become idle. Entries are invalidated by version numbers.
class Balancer {
 public:
  explicit Balancer(const Instance& in) : in_(in), wk_(in.workers()) {
    for (std::size_t k = 0; k < wk_.size(); ++k) {
      wk_[k].kept_own = in.loads[k];
      wk_[k].end = static_cast<double>(in.loads[k]) * in.w[k];
      push_sender(k);
      push_busy(k);
    }
  }

  // Moves tasks one at a time from the latest sender to the receiver that would finish it
  // first, while that improves on the sender's end.
  void run(Schedule& s) {
    while (const auto sender = latest_sender()) {
      const double b = std::max(master_in_ + in_.c[*sender], master_out_);
      promote_idle(b);
      const auto best = best_receiver(b);
      if (!best) break;
      const auto [value, end_r, receiver] = *best;
      if (receiver == *sender || wk_[*sender].end <= value) break;
      s.transfers.push_back(
          {static_cast<std::int64_t>(*sender), static_cast<std::int64_t>(receiver), master_in_, b});
      master_in_ += in_.c[*sender];
      master_out_ = b + in_.c[receiver];
      send_one(*sender);
      receive_one(receiver, value);
    }
  }

 private:
  void push_sender(std::size_t k) {
    if (!wk_[k].received && wk_[k].kept_own > 0)
      senders_.emplace(-wk_[k].end, 0.0, k, wk_[k].version);
  }
  void push_busy(std::size_t k) {
    wk_[k].state = State::busy;
    busy_.emplace(wk_[k].end + in_.w[k], wk_[k].end, k, wk_[k].version);
    threshold_.emplace(wk_[k].end - in_.c[k], 0.0, k, wk_[k].version);
  }
  bool valid_receiver(const Entry& e, State st) const {
    const std::size_t k = std::get<2>(e);
    return std::get<3>(e) == wk_[k].version && !wk_[k].sent && wk_[k].state == st;
  }
  // The sender with the largest end (then the lowest index) that still holds an own task.
  std::optional<std::size_t> latest_sender() {
    while (!senders_.empty()) {
      const auto [key, tie, k, version] = senders_.top();
      if (version == wk_[k].version && !wk_[k].received && wk_[k].kept_own > 0) return k;
      senders_.pop();
    }
    return std::nullopt;
  }
  // Busy workers whose end - c is below the forward time b are idle from then on.
  void promote_idle(double b) {
    while (!threshold_.empty() && std::get<0>(threshold_.top()) < b) {
      const Entry e = threshold_.top();
      threshold_.pop();
      const std::size_t k = std::get<2>(e);
      if (!valid_receiver(e, State::busy)) continue;
      if (wk_[k].end >= b + in_.c[k]) continue;  // rounding: still busy (stays in `busy`)
      wk_[k].state = State::idle;
      ++wk_[k].version;
      idle_.emplace(in_.c[k] + in_.w[k], wk_[k].end, k, wk_[k].version);
    }
    while (!busy_.empty() && !valid_receiver(busy_.top(), State::busy)) busy_.pop();
    while (!idle_.empty() && !valid_receiver(idle_.top(), State::idle)) idle_.pop();
  }
  // The better of the best busy and the best idle receiver, by (finish, end, index).
  std::optional<Candidate> best_receiver(double b) const {
    std::optional<Candidate> best;
    const auto consider = [&](std::size_t k) {
      const Candidate cand{std::max(wk_[k].end, b + in_.c[k]) + in_.w[k], wk_[k].end, k};
      if (!best || cand < *best) best = cand;
    };
    if (!busy_.empty()) consider(std::get<2>(busy_.top()));
    if (!idle_.empty()) consider(std::get<2>(idle_.top()));
    return best;
  }
  // The sender computes one own task less and is no receiver any more.
  void send_one(std::size_t k) {
    Worker& ws = wk_[k];
    --ws.kept_own;
    ws.end = static_cast<double>(ws.kept_own) * in_.w[k];
    ws.sent = true;
    ++ws.version;
    ws.state = State::none;
    senders_.pop();
    push_sender(k);
  }
  // The receiver ends at `value` and is no sender any more.
  void receive_one(std::size_t k, double value) {
    Worker& wr = wk_[k];
    wr.end = value;
    wr.received = true;
    ++wr.version;
    push_busy(k);
  }

  const Instance& in_;
  std::vector<Worker> wk_;
  MinHeap senders_, busy_, threshold_, idle_;
  double master_in_ = 0, master_out_ = 0;
};

}  // namespace

Schedule plan_bba(const Instance& in) {
  Schedule s;
  s.algorithm = "bba";
  Balancer(in).run(s);
  finish_times(in, s);
  return s;
}

}  // namespace redist::star
