#include "redist/exchange/validate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
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

// Pieces per message: every piece on a message's pair, every message's bytes delivered.
std::string delivery_fault(const Instance& in, const Plan& plan) {
  std::unordered_map<std::uint64_t, std::size_t> message_of;
  message_of.reserve(in.messages.size());
  for (std::size_t k = 0; k < in.messages.size(); ++k) {
    message_of.emplace(pair_key(in.messages[k].from, in.messages[k].to), k);
  }
  std::vector<double> delivered(in.messages.size(), 0.0);
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    const Piece& p = plan.pieces[k];
    if (std::string why = piece_fault(in, p); !why.empty())
      return fmt::format("piece {}: {}", k, why);
    const auto it = message_of.find(pair_key(p.from, p.to));
    if (it == message_of.end()) {
      return fmt::format("piece {} goes from {} to {}, which has no message", k, p.from, p.to);
    }
    delivered[it->second] += p.bytes;
  }
  for (std::size_t k = 0; k < in.messages.size(); ++k) {
    const auto bytes = static_cast<double>(in.messages[k].bytes);
    if (std::fabs(delivered[k] - bytes) > kBytesTolerance * bytes) {
      return fmt::format("message {} ({} -> {}) has {} bytes but its pieces deliver {}", k,
                         in.messages[k].from, in.messages[k].to, in.messages[k].bytes,
                         delivered[k]);
    }
  }
  return "";
}

// Two pieces on one port that overlap by more than `tolerance`, or "".
std::string port_fault(std::vector<std::vector<Busy>>& ports, const char* port, double tolerance) {
  for (std::size_t node = 0; node < ports.size(); ++node) {
    std::vector<Busy>& busy = ports[node];
    std::sort(busy.begin(), busy.end(),
              [](const Busy& a, const Busy& b) { return a.start < b.start; });
    for (std::size_t k = 1; k < busy.size(); ++k) {
      if (busy[k].start < busy[k - 1].end - tolerance) {
        return fmt::format("pieces {} and {} overlap on the {} port of node {}", busy[k - 1].piece,
                           busy[k].piece, port, node);
      }
    }
  }
  return "";
}

// More than k crossing pieces at once, or "".
std::string backbone_fault(const Instance& in, const Plan& plan, const std::vector<double>& ends,
                           double tolerance) {
  const std::vector<std::uint8_t> cluster = cluster_of(in);
  std::vector<std::pair<double, int>> events;  // (time, +1 start | -1 end)
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    const Piece& p = plan.pieces[k];
    if (cluster[static_cast<std::size_t>(p.from)] == cluster[static_cast<std::size_t>(p.to)]) {
      continue;
    }
    events.push_back({p.start + tolerance, +1});  // touching within the tolerance is no overlap
    events.push_back({ends[k], -1});
  }
  std::sort(events.begin(), events.end());  // at equal times, ends (-1) first
  std::int64_t running = 0;
  for (const auto& [time, change] : events) {
    running += change;
    if (running > in.backbone->transfers) {
      return fmt::format("{} crossing pieces run at once at time {} (the backbone carries {})",
                         running, time, in.backbone->transfers);
    }
  }
  return "";
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
  if (std::string why = delivery_fault(in, plan); !why.empty()) return {false, 0.0, why};
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
    if (std::string why = port_fault(*ports, name, tolerance); !why.empty()) {
      return {false, 0.0, why};
    }
  }
  if (in.backbone) {
    if (std::string why = backbone_fault(in, plan, ends, tolerance); !why.empty()) {
      return {false, 0.0, why};
    }
  }
  if (std::string why = claim_fault(plan, makespan, stated); !why.empty()) {
    return {false, 0.0, why};
  }
  return {true, makespan, ""};
}

}  // namespace redist::exchange
