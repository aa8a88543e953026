#include "redist/exchange/ordered_execution.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <utility>
#include <vector>

namespace redist::exchange {
namespace {

using Event = std::pair<double, std::size_t>;  // (time or service, piece)
using EarliestFirst = std::priority_queue<Event, std::vector<Event>, std::greater<>>;

class OrderedRun {
 public:
  OrderedRun(const Instance& in, const Plan& plan)
      : in_(in),
        plan_(plan),
        sends_(in.nodes),
        recvs_(in.nodes),
        send_next_(in.nodes, 0),
        recv_next_(in.nodes, 0),
        send_running_(in.nodes, false),
        recv_running_(in.nodes, false),
        crossing_(plan.pieces.size(), false) {
    std::vector<std::size_t> order(plan.pieces.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return plan.pieces[a].start < plan.pieces[b].start;
    });
    const std::vector<std::uint8_t> cluster = cluster_of(in);
    for (const std::size_t k : order) {
      const Piece& p = plan.pieces[k];
      sends_[static_cast<std::size_t>(p.from)].push_back(k);
      recvs_[static_cast<std::size_t>(p.to)].push_back(k);
      crossing_[k] = crosses(cluster, p.from, p.to);
    }
    if (in.backbone) transfers_ = static_cast<double>(in.backbone->transfers);
  }

  double run() {
    for (std::size_t i = 0; i < in_.nodes; ++i) try_start(sends_[i], send_next_[i]);
    double end = 0.0;
    while (!local_.empty() || !crossing_ends_.empty()) {
      advance();
      end = std::max(end, now_);
      std::vector<std::size_t> ended;
      while (!local_.empty() && local_.top().first <= now_) {
        ended.push_back(local_.top().second);
        local_.pop();
      }
      while (!crossing_ends_.empty() && crossing_ends_.top().first <= service_) {
        ended.push_back(crossing_ends_.top().second);
        crossing_ends_.pop();
        --crossing_running_;
      }
      for (const std::size_t k : ended) finish(k);
    }
    return end;
  }

 private:
  // The backbone's share of its rate each crossing piece gets now.
  double rate() const {
    return crossing_running_ > transfers_ ? transfers_ / crossing_running_ : 1.0;
  }
  // Moves to the instant the next piece ends: a local one at its end, a crossing one when the
  // shared service clock reaches its target (set exactly then, whatever the rounding).
  void advance() {
    const double inf = std::numeric_limits<double>::infinity();
    const double local_end = local_.empty() ? inf : local_.top().first;
    const double crossing_end =
        crossing_ends_.empty() ? inf : now_ + (crossing_ends_.top().first - service_) / rate();
    const double next = std::min(local_end, crossing_end);
    if (crossing_running_ > 0) service_ += (next - now_) * rate();
    if (crossing_end <= next) service_ = std::max(service_, crossing_ends_.top().first);
    now_ = next;
  }

  // Starts the head of a list when it also heads its other list and both ports are free (a
  // port is free when its previous piece ended: the heads advance only then).
  void try_start(const std::vector<std::size_t>& list, std::size_t next) {
    if (next >= list.size()) return;
    const std::size_t k = list[next];
    const Piece& p = plan_.pieces[k];
    const auto i = static_cast<std::size_t>(p.from), j = static_cast<std::size_t>(p.to);
    if (send_running_[i] || recv_running_[j]) return;
    if (sends_[i][send_next_[i]] != k || recvs_[j][recv_next_[j]] != k) return;
    send_running_[i] = recv_running_[j] = true;
    const double seconds = piece_seconds(in_, p);
    if (crossing_[k]) {
      ++crossing_running_;
      crossing_ends_.emplace(service_ + seconds, k);
    } else {
      local_.emplace(now_ + seconds, k);
    }
  }
  void finish(std::size_t k) {
    const Piece& p = plan_.pieces[k];
    const auto i = static_cast<std::size_t>(p.from), j = static_cast<std::size_t>(p.to);
    send_running_[i] = recv_running_[j] = false;
    ++send_next_[i];
    ++recv_next_[j];
    try_start(sends_[i], send_next_[i]);
    try_start(recvs_[j], recv_next_[j]);
  }

  const Instance& in_;
  const Plan& plan_;
  std::vector<std::vector<std::size_t>> sends_, recvs_;  // each port's pieces, in plan order
  std::vector<std::size_t> send_next_, recv_next_;       // each list's head
  std::vector<bool> send_running_, recv_running_, crossing_;
  double transfers_ = 1.0;
  double now_ = 0.0;
  double service_ = 0.0;  // seconds of service every crossing piece got since the start
  double crossing_running_ = 0.0;
  EarliestFirst local_;          // (end, piece) of the running pieces that do not cross
  EarliestFirst crossing_ends_;  // (service at its end, piece) of the crossing ones
};

}  // namespace

double ordered_execution_makespan(const Instance& instance, const Plan& plan) {
  return OrderedRun(instance, plan).run();
}

}  // namespace redist::exchange
