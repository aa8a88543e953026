#include "redist/exchange/validate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "redist/common/tolerance.hpp"

namespace redist::exchange {
namespace {

struct Busy {
  double start, end;
  std::size_t piece;
};

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

// Two pieces on one port that overlap by more than `tolerance` (the entries), or valid.
CheckResult port_fault(std::vector<std::vector<Busy>>& ports, const char* port, double tolerance) {
  for (std::size_t node = 0; node < ports.size(); ++node) {
    std::vector<Busy>& busy = ports[node];
    std::sort(busy.begin(), busy.end(),
              [](const Busy& a, const Busy& b) { return a.start < b.start; });
    for (std::size_t k = 1; k < busy.size(); ++k) {
      if (busy[k].start < busy[k - 1].end - tolerance) {
        return {false,
                0.0,
                fmt::format("pieces {} and {} overlap on the {} port of node {}", busy[k - 1].piece,
                            busy[k].piece, port, node),
                {busy[k - 1].piece, busy[k].piece}};
      }
    }
  }
  return {true, 0.0, ""};
}

// More than k crossing pieces at once (the entries: those running then), or valid.
CheckResult backbone_fault(const Instance& in, const Plan& plan, const std::vector<double>& ends,
                           double tolerance) {
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
    events.push_back({p.start + tolerance, +1, k});  // touching within the tolerance is no overlap
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

std::string claim_fault(const Plan& plan, double makespan, const StatedClaims& stated) {
  const double tolerance = kTimeTolerance * std::max(std::fabs(plan.makespan), makespan);
  if (stated.makespan && !(std::fabs(plan.makespan - makespan) <= tolerance)) {
    return fmt::format("makespan is {} but the pieces end at {}", plan.makespan, makespan);
  }
  if (stated.lower_bound && !(plan.lower_bound <= makespan + kTimeTolerance * makespan)) {
    return fmt::format("lower_bound {} is above the makespan {}", plan.lower_bound, makespan);
  }
  if (stated.optimal && stated.lower_bound && plan.optimal &&
      makespan > plan.lower_bound + kTimeTolerance * makespan) {
    return fmt::format("optimal is claimed but the makespan {} is above the lower bound {}",
                       makespan, plan.lower_bound);
  }
  return "";
}

}  // namespace

CheckResult check(const Instance& in, const Plan& plan, const StatedClaims& stated) {
  validate_instance(in);
  if (CheckResult fault = delivery_fault(in, plan); !fault.valid) return fault;
  std::vector<std::vector<Busy>> sends(in.nodes), receives(in.nodes);
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
  const double tolerance = kTimeTolerance * makespan;
  for (auto [ports, name] : {std::pair{&sends, "send"}, std::pair{&receives, "receive"}}) {
    if (CheckResult fault = port_fault(*ports, name, tolerance); !fault.valid) return fault;
  }
  if (in.backbone) {
    if (CheckResult fault = backbone_fault(in, plan, ends, tolerance); !fault.valid) return fault;
  }
  if (std::string why = claim_fault(plan, makespan, stated); !why.empty()) {
    return {false, 0.0, why};
  }
  return {true, makespan, ""};
}

}  // namespace redist::exchange
