#include "redist/exchange/all_at_once.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::exchange {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Span {
  double start = 0.0;
  double end = 0.0;
};

using Event = std::pair<double, std::size_t>;  // (time or virtual time, message)
using EventQueue = std::priority_queue<Event, std::vector<Event>, std::greater<>>;

class FluidSchedule {
 public:
  FluidSchedule(const Instance& in, PostOrder order, std::uint64_t seed)
      : in_(in),
        m_(in.messages.size()),
        by_sender_(in.nodes),
        by_receiver_(in.nodes),
        send_busy_(in.nodes, false),
        recv_busy_(in.nodes, false),
        started_(m_, false),
        crossing_(m_, false),
        seconds_(m_),
        spans_(m_),
        transfers_(in.backbone ? in.backbone->transfers : 0) {
    const std::vector<std::uint8_t> cluster = cluster_of(in);
    const auto p = static_cast<std::int64_t>(in.nodes);
    for (std::size_t k = 0; k < m_; ++k) {
      const Message& msg = in.messages[k];
      seconds_[k] = in.duration(msg);
      crossing_[k] = crosses(cluster, msg.from, msg.to);
    }
    std::vector<std::size_t> sorted(m_);
    for (std::size_t k = 0; k < m_; ++k) sorted[k] = k;
    if (order == PostOrder::shuffled) {
      std::mt19937_64 rng(seed);
      for (std::size_t k = m_; k > 1; --k) {
        std::swap(sorted[k - 1], sorted[static_cast<std::size_t>(rng() % k)]);
      }
    } else if (order == PostOrder::longest_first) {
      std::stable_sort(sorted.begin(), sorted.end(),
                       [&](std::size_t a, std::size_t b) { return seconds_[a] > seconds_[b]; });
    } else if (order == PostOrder::rank) {
      // Each list in the other end's rank order (a sender's by receiver, a receiver's by sender):
      // sorted by receiver here, so the senders' lists are in order; the receivers' are sorted
      // below.
      std::stable_sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
        return in.messages[a].to < in.messages[b].to;
      });
    } else {
      const auto offset = [&](std::size_t k) {
        return ((in.messages[k].to - in.messages[k].from) % p + p) % p;
      };
      std::stable_sort(sorted.begin(), sorted.end(),
                       [&](std::size_t a, std::size_t b) { return offset(a) < offset(b); });
    }
    for (const std::size_t k : sorted) {
      by_sender_[static_cast<std::size_t>(in.messages[k].from)].push_back(k);
      by_receiver_[static_cast<std::size_t>(in.messages[k].to)].push_back(k);
    }
    if (order == PostOrder::rank) {
      for (std::vector<std::size_t>& list : by_receiver_) {
        std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
          return in.messages[a].from < in.messages[b].from;
        });
      }
    }
    next_send_.assign(in.nodes, 0);
    next_recv_.assign(in.nodes, 0);
  }

  // Runs the fluid schedule; spans() then holds each message's pieces as time spans.
  void run() {
    for (std::size_t i = 0; i < in_.nodes; ++i) start_from_sender(i);
    close_window();  // the crossing messages started at 0 open the first window
    while (!intra_.empty() || !running_.empty()) {
      const double speed = crossing_speed();
      const double next_intra = intra_.empty() ? kInfinity : intra_.top().first;
      const double next_cross =
          running_.empty() ? kInfinity : now_ + (virtual_ends_.top().first - virtual_) / speed;
      const double next = std::min(next_intra, next_cross);
      virtual_ += (next - now_) * speed;
      now_ = next;
      std::vector<std::size_t> ended;
      while (!intra_.empty() && intra_.top().first <= now_) {
        ended.push_back(intra_.top().second);
        intra_.pop();
      }
      bool crossing_ended = false;
      while (!virtual_ends_.empty() &&
             virtual_ends_.top().first <=
                 virtual_ + kSearchResolution * virtual_ends_.top().first) {
        if (!crossing_ended) close_window();
        crossing_ended = true;
        const std::size_t k = virtual_ends_.top().second;
        virtual_ends_.pop();
        running_.erase(std::find(running_.begin(), running_.end(), k));
        ended.push_back(k);
      }
      for (const std::size_t k : ended) {
        send_busy_[static_cast<std::size_t>(in_.messages[k].from)] = false;
        recv_busy_[static_cast<std::size_t>(in_.messages[k].to)] = false;
      }
      for (const std::size_t k : ended) {
        start_from_sender(static_cast<std::size_t>(in_.messages[k].from));
        start_from_receiver(static_cast<std::size_t>(in_.messages[k].to));
      }
      if (!pending_.empty()) close_window();
    }
  }

  const std::vector<std::vector<Span>>& spans() const { return spans_; }

 private:
  double crossing_speed() const {
    const auto c = static_cast<std::int64_t>(running_.size());
    return c > transfers_ ? static_cast<double>(transfers_) / static_cast<double>(c) : 1.0;
  }

  void start(std::size_t k) {
    started_[k] = true;
    send_busy_[static_cast<std::size_t>(in_.messages[k].from)] = true;
    recv_busy_[static_cast<std::size_t>(in_.messages[k].to)] = true;
    if (crossing_[k]) {
      // Joins the running set when the current window closes (close_window), so that the window
      // before now keeps the set it had.
      pending_.push_back(k);
    } else {
      intra_.push({now_ + seconds_[k], k});
      spans_[k].push_back({now_, now_ + seconds_[k]});
    }
  }

  // The first waiting message of node i's send list whose receiver is free.
  void start_from_sender(std::size_t i) {
    if (send_busy_[i]) return;
    const std::vector<std::size_t>& list = by_sender_[i];
    while (next_send_[i] < list.size() && started_[list[next_send_[i]]]) ++next_send_[i];
    for (std::size_t at = next_send_[i]; at < list.size(); ++at) {
      const std::size_t k = list[at];
      if (!started_[k] && !recv_busy_[static_cast<std::size_t>(in_.messages[k].to)]) {
        start(k);
        return;
      }
    }
  }

  void start_from_receiver(std::size_t j) {
    if (recv_busy_[j]) return;
    const std::vector<std::size_t>& list = by_receiver_[j];
    while (next_recv_[j] < list.size() && started_[list[next_recv_[j]]]) ++next_recv_[j];
    for (std::size_t at = next_recv_[j]; at < list.size(); ++at) {
      const std::size_t k = list[at];
      if (!started_[k] && !send_busy_[static_cast<std::size_t>(in_.messages[k].from)]) {
        start(k);
        return;
      }
    }
  }

  // Lays out the running crossing messages' service over [window_start_, now_) (module comment),
  // then lets the messages started since join the running set.
  void close_window() {
    const double t0 = window_start_, t1 = now_;
    const auto c = static_cast<std::int64_t>(running_.size());
    if (t1 > t0 && c > 0) {
      if (c <= transfers_) {
        for (const std::size_t k : running_) add_span(k, t0, t1);
      } else {
        lay_out_slots(t0, t1);
      }
    }
    for (const std::size_t k : pending_) {
      running_.push_back(k);
      virtual_ends_.push({virtual_ + seconds_[k], k});
    }
    pending_.clear();
    window_start_ = now_;
  }

  // McNaughton: message at index i of the line gets [i k / c, (i + 1) k / c) in slot units (slot
  // s is [s, s + 1), one window long). The index at the start of slot s is floor(s c / k): the
  // messages whose last piece ended at t0 take those indices first, so that they continue.
  void lay_out_slots(double t0, double t1) {
    const auto c = static_cast<std::int64_t>(running_.size());
    const std::int64_t k = transfers_;
    std::vector<std::int64_t> heads;
    for (std::int64_t s = 0; s < k; ++s) heads.push_back(s * c / k);
    std::vector<std::size_t> line(static_cast<std::size_t>(c), m_);
    std::vector<bool> placed(running_.size(), false);
    std::size_t h = 0;
    for (std::size_t r = 0; r < running_.size() && h < heads.size(); ++r) {
      const std::vector<Span>& own = spans_[running_[r]];
      if (!own.empty() && own.back().end == t0) {
        line[static_cast<std::size_t>(heads[h++])] = running_[r];
        placed[r] = true;
      }
    }
    std::size_t next = 0;
    for (std::size_t r = 0; r < running_.size(); ++r) {
      if (placed[r]) continue;
      while (line[next] != m_) ++next;
      line[next] = running_[r];
    }
    const double width = t1 - t0;
    const auto at = [&](std::int64_t units, std::int64_t slot) {
      // t0 + (units / c - slot) x width, exact at the slot's ends
      const std::int64_t rest = units - slot * c;
      if (rest == 0) return t0;
      if (rest == c) return t1;
      return t0 + width * static_cast<double>(rest) / static_cast<double>(c);
    };
    for (std::int64_t i = 0; i < c; ++i) {
      const std::size_t msg = line[static_cast<std::size_t>(i)];
      const std::int64_t from = i * k, to = (i + 1) * k;  // in units of 1 / c slot
      const std::int64_t first = from / c, last = (to - 1) / c;
      if (first == last) {
        add_span(msg, at(from, first), at(to, first));
      } else {
        add_span(msg, t0, at(to, last));  // first, to continue a piece that ended at t0
        add_span(msg, at(from, first), t1);
      }
    }
  }

  void add_span(std::size_t k, double start, double end) {
    if (!(end > start)) return;
    std::vector<Span>& own = spans_[k];
    if (!own.empty() && own.back().end == start) {
      own.back().end = end;
    } else {
      own.push_back({start, end});
    }
  }

  const Instance& in_;
  std::size_t m_;
  std::vector<std::vector<std::size_t>> by_sender_, by_receiver_;
  std::vector<std::size_t> next_send_, next_recv_;
  std::vector<bool> send_busy_, recv_busy_, started_, crossing_;
  std::vector<double> seconds_;
  std::vector<std::vector<Span>> spans_;
  std::int64_t transfers_;
  EventQueue intra_;                  // (end time, message) of the running intra-cluster messages
  EventQueue virtual_ends_;           // (virtual end, message) of the running crossing messages
  std::vector<std::size_t> running_;  // the running crossing messages
  std::vector<std::size_t> pending_;  // crossing messages started at now_, not yet running
  double now_ = 0.0, virtual_ = 0.0, window_start_ = 0.0;
};

}  // namespace

Plan plan_all_at_once(const Instance& instance, PostOrder order, std::uint64_t seed) {
  validate_instance(instance);
  if (instance.backbone && instance.latency > 0) {
    throw OptionError(
        "all-at-once: a backbone needs latency 0 (a message cut by the shared "
        "backbone would pay the latency once per piece)",
        "algorithm");
  }
  FluidSchedule schedule(instance, order, seed);
  Plan plan;
  plan.algorithm = "all-at-once";
  schedule.run();
  for (std::size_t k = 0; k < instance.messages.size(); ++k) {
    std::vector<Span> spans = schedule.spans()[k];
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.start < b.start; });
    double total = 0.0;
    for (const Span& s : spans) total += s.end - s.start;
    const Message& m = instance.messages[k];
    const auto bytes = static_cast<double>(m.bytes);
    double given = 0.0;
    for (std::size_t s = 0; s < spans.size(); ++s) {
      // Bytes in proportion to the span's share of the message's service; the last takes the
      // rest, so that the pieces deliver the message exactly.
      const double b =
          s + 1 == spans.size() ? bytes - given : bytes * ((spans[s].end - spans[s].start) / total);
      given += b;
      plan.pieces.push_back({m.from, m.to, spans[s].start, b});
      plan.makespan =
          std::max(plan.makespan, piece_seconds(instance, plan.pieces.back()) + spans[s].start);
    }
  }
  std::sort(plan.pieces.begin(), plan.pieces.end(),
            [](const Piece& a, const Piece& b) { return a.start < b.start; });
  plan.bounds = bounds(instance);
  plan.lower_bound = plan.bounds.lower_bound;
  if (at_most(plan.makespan, *plan.lower_bound)) plan.prove_optimal(Proof::lower_bound);
  return plan;
}

}  // namespace redist::exchange
