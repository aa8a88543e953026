#include "redist/exchange/validate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "redist/common/overlap.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::exchange {
namespace {

std::uint64_t pair_key(std::int64_t from, std::int64_t to) {
  return (static_cast<std::uint64_t>(from) << 32) | static_cast<std::uint64_t>(to);
}

// The first piece that is not a valid piece of some message, or "".
std::string piece_fault(const Instance& in, const Piece& p) {
  const auto n = static_cast<std::int64_t>(in.nodes);
  if (p.from < 0 || p.from >= n || p.to < 0 || p.to >= n) return "a node out of range";
  if (p.from == p.to) return "a node sending to itself";
  if (!std::isfinite(p.start) || p.start < 0) return "a start that is not a finite time >= 0";
  if (!std::isfinite(p.bytes) || p.bytes <= 0) return "bytes that are not a finite number > 0";
  return "";
}

// The pieces on each message's pair (messages have distinct pairs), in plan order; a piece on no
// message's pair is the reason (with that piece) for the verdict `fault`.
std::vector<std::vector<std::size_t>> pieces_by_message(const Instance& in, const Plan& plan,
                                                        CheckResult& fault) {
  std::unordered_map<std::uint64_t, std::size_t> message_of;
  message_of.reserve(in.messages.size());
  for (std::size_t k = 0; k < in.messages.size(); ++k) {
    message_of.emplace(pair_key(in.messages[k].from, in.messages[k].to), k);
  }
  std::vector<std::vector<std::size_t>> pieces(in.messages.size());
  for (std::size_t k = 0; k < plan.pieces.size() && fault.valid; ++k) {
    const Piece& p = plan.pieces[k];
    if (std::string why = piece_fault(in, p); !why.empty()) {
      fault = {false, 0.0, fmt::format("piece {}: {}", k, why), {k}};
    } else if (const auto it = message_of.find(pair_key(p.from, p.to)); it != message_of.end()) {
      pieces[it->second].push_back(k);
    } else {
      fault = {false,
               0.0,
               fmt::format("piece {} goes from {} to {}, which has no message", k, p.from, p.to),
               {k}};
    }
  }
  return pieces;
}

// Pieces per message: every piece on a message's pair, every message's bytes delivered. The
// entries of a message delivered wrong are its pieces.
CheckResult delivery_fault(const Instance& in, const Plan& plan) {
  CheckResult fault{true, 0.0, ""};
  const std::vector<std::vector<std::size_t>> pieces = pieces_by_message(in, plan, fault);
  for (std::size_t k = 0; k < in.messages.size() && fault.valid; ++k) {
    double delivered = 0.0;
    for (std::size_t piece : pieces[k]) delivered += plan.pieces[piece].bytes;
    const auto bytes = static_cast<double>(in.messages[k].bytes);
    if (std::fabs(delivered - bytes) > kBytesTolerance * bytes) {
      fault = {false, 0.0,
               fmt::format("message {} ({} -> {}) has {} bytes but its pieces deliver {}", k,
                           in.messages[k].from, in.messages[k].to, in.messages[k].bytes, delivered),
               pieces[k]};
    }
  }
  return fault;
}

// Two pieces on one port that share more than their allowance (the entries), or valid: the exact
// sweep of common/overlap.hpp, the same verdict for any order of the pieces.
CheckResult overlap_fault(std::vector<Span>& busy, const char* port, std::size_t node,
                          double floor) {
  if (const auto o = first_overlap(busy, floor)) {
    return {false,
            0.0,
            fmt::format("pieces {} and {} overlap on the {} port of node {}", o->first, o->second,
                        port, node),
            {o->first, o->second}};
  }
  return {true, 0.0, ""};
}

// The port's pieces take more time in all than they cover (their union), beyond the allowance of
// its last end: overlaps each within their allowance that add up.
CheckResult busy_fault(const std::vector<Span>& busy, const char* port, std::size_t node,
                       double floor) {
  if (const BusyTime b = busy_time(busy, floor); b.exceeds(floor)) {
    return {false, 0.0,
            fmt::format("the pieces on the {} port of node {} take {} seconds in all, more than "
                        "the {} seconds they cover: they overlap",
                        port, node, b.busy, b.covered)};
  }
  return {true, 0.0, ""};
}

CheckResult port_fault(std::vector<std::vector<Span>>& ports, const char* port, double floor) {
  for (std::size_t node = 0; node < ports.size(); ++node) {
    if (CheckResult f = overlap_fault(ports[node], port, node, floor); !f.valid) return f;
    if (CheckResult f = busy_fault(ports[node], port, node, floor); !f.valid) return f;
  }
  return {true, 0.0, ""};
}

// More than k crossing pieces at once (the entries: those running then), or valid.
CheckResult backbone_fault(const Instance& in, const Plan& plan, const std::vector<double>& ends,
                           double floor) {
  const std::vector<std::uint8_t> cluster = cluster_of(in);
  struct Event {
    double time;
    int change;  // +1 start, -1 end
    std::size_t piece;
    bool operator<(const Event& o) const {  // at equal times, ends first
      return std::tie(time, change, piece) < std::tie(o.time, o.change, o.piece);
    }
  };
  std::vector<Event> events;
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    const Piece& p = plan.pieces[k];
    if (cluster[static_cast<std::size_t>(p.from)] == cluster[static_cast<std::size_t>(p.to)]) {
      continue;
    }
    // Touching within the allowance of the piece's end is no overlap.
    events.push_back({p.start + allowance(ends[k], floor), +1, k});
    events.push_back({ends[k], -1, k});
  }
  std::sort(events.begin(), events.end());
  std::vector<int> running(plan.pieces.size(), 0);  // 1 from a piece's start to its end
  std::int64_t count = 0;
  for (const Event& e : events) {
    running[e.piece] += e.change;
    count += e.change;
    if (count <= in.backbone->transfers) continue;
    CheckResult fault{false, 0.0,
                      fmt::format("{} crossing pieces run at once at time {} (the backbone "
                                  "carries {})",
                                  count, e.time, in.backbone->transfers)};
    for (std::size_t k = 0; k < running.size(); ++k) {
      if (running[k] > 0) fault.entries.push_back(k);
    }
    return fault;
  }
  return {true, 0.0, ""};
}

// A piece that starts after the horizon: the time to send every piece one after the other.
// Beyond it a plan only waits, and its pieces' durations would vanish against their start times.
CheckResult horizon_fault(const Instance& in, const Plan& plan) {
  const double h = horizon(in, plan.pieces.size());
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    if (plan.pieces[k].start > h + kTimeTolerance * h) {
      return {false,
              0.0,
              fmt::format("piece {} starts at {}, after the horizon {}: the time to send every "
                          "piece one after the other",
                          k, plan.pieces[k].start, h),
              {k}};
    }
  }
  return {true, 0.0, ""};
}

std::string claim_fault(const Plan& plan, double makespan, const StatedClaims& stated) {
  const double tolerance = kTimeTolerance * std::max(std::fabs(plan.makespan), makespan);
  if (stated.makespan && !(std::fabs(plan.makespan - makespan) <= tolerance)) {
    return fmt::format("makespan is {} but the pieces end at {}", plan.makespan, makespan);
  }
  const double bound = plan.lower_bound.value_or(0.0);
  if (stated.lower_bound && !(bound <= makespan + kTimeTolerance * makespan)) {
    return fmt::format("lower_bound {} is above the makespan {}", bound, makespan);
  }
  if (stated.optimal && stated.lower_bound && plan.optimal &&
      makespan > bound + kTimeTolerance * makespan) {
    return fmt::format("optimal is claimed but the makespan {} is above the lower bound {}",
                       makespan, bound);
  }
  return "";
}

}  // namespace

namespace {

// Seconds a message's bytes take at the rate of its pair, without the latency (recomputed here,
// independently of the model's helpers).
double transfer_seconds(const Instance& in, const Message& m) {
  const auto from = static_cast<std::size_t>(m.from), to = static_cast<std::size_t>(m.to);
  return static_cast<double>(m.bytes) / std::min(in.send_bandwidth[from], in.recv_bandwidth[to]);
}

}  // namespace

double busiest_port(const Instance& in) {
  std::vector<double> sends(in.nodes, 0.0), receives(in.nodes, 0.0);
  for (const Message& m : in.messages) {
    const double d = in.latency + transfer_seconds(in, m);
    sends[static_cast<std::size_t>(m.from)] += d;
    receives[static_cast<std::size_t>(m.to)] += d;
  }
  double busiest = 0.0;
  for (std::size_t i = 0; i < in.nodes; ++i) busiest = std::max({busiest, sends[i], receives[i]});
  return busiest;
}

double horizon(const Instance& in, std::size_t pieces) {
  double total = static_cast<double>(pieces) * in.latency;
  for (const Message& m : in.messages) total += transfer_seconds(in, m);
  return total;
}

CheckResult check(const Instance& in, const Plan& plan, const StatedClaims& stated) {
  validate_instance(in);
  if (CheckResult fault = delivery_fault(in, plan); !fault.valid) return fault;
  if (CheckResult fault = horizon_fault(in, plan); !fault.valid) return fault;
  // Every port's pieces, its vector reserved from a count first: no vector grows by a copy.
  std::vector<std::vector<Span>> sends(in.nodes), receives(in.nodes);
  {
    std::vector<std::size_t> sent(in.nodes, 0), received(in.nodes, 0);
    for (const Piece& p : plan.pieces) {
      ++sent[static_cast<std::size_t>(p.from)];
      ++received[static_cast<std::size_t>(p.to)];
    }
    for (std::size_t i = 0; i < in.nodes; ++i) {
      sends[i].reserve(sent[i]);
      receives[i].reserve(received[i]);
    }
  }
  std::vector<double> ends(plan.pieces.size());
  double makespan = 0.0;
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    const Piece& p = plan.pieces[k];
    const auto from = static_cast<std::size_t>(p.from), to = static_cast<std::size_t>(p.to);
    ends[k] =
        p.start + in.latency + p.bytes / std::min(in.send_bandwidth[from], in.recv_bandwidth[to]);
    makespan = std::max(makespan, ends[k]);
    sends[from].push_back({p.start, ends[k], k});
    receives[to].push_back({p.start, ends[k], k});
  }
  if (!std::isfinite(makespan)) return {false, 0.0, "the pieces end at no finite time"};
  const double floor = kTimeResolution * busiest_port(in);
  for (auto [ports, name] : {std::pair{&sends, "send"}, std::pair{&receives, "receive"}}) {
    if (CheckResult fault = port_fault(*ports, name, floor); !fault.valid) return fault;
  }
  if (in.backbone) {
    if (CheckResult fault = backbone_fault(in, plan, ends, floor); !fault.valid) return fault;
  }
  if (std::string why = claim_fault(plan, makespan, stated); !why.empty()) {
    return {false, 0.0, why};
  }
  return {true, makespan, ""};
}

}  // namespace redist::exchange
