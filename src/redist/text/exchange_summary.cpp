#include "redist/text/exchange_summary.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "redist/text/summary.hpp"

namespace redist::text {
namespace {

std::string bandwidths(const std::vector<double>& values) {
  const bool uniform =
      std::all_of(values.begin(), values.end(), [&](double b) { return b == values.front(); });
  return uniform ? number(values.front()) + " (every node)" : numbers(values);
}

void describe_instance(Summary& out, const exchange::Instance& in, std::string_view heading,
                       std::string_view source) {
  double bytes = 0;
  for (const exchange::Message& m : in.messages) bytes += static_cast<double>(m.bytes);
  out.line(fmt::format("{}: {} messages, {} bytes between {} nodes{}", heading, in.messages.size(),
                       number(bytes), in.nodes,
                       source.empty() ? "" : fmt::format(" ({})", source)));
  out.line("  send bandwidth " + bandwidths(in.send_bandwidth));
  out.line("  recv bandwidth " + bandwidths(in.recv_bandwidth));
  out.line("  latency        " + number(in.latency) + " s per piece");
  if (in.backbone) {
    out.line(fmt::format(
        "  backbone       {} transfers at once between clusters of {} and {} nodes",
        in.backbone->transfers, in.backbone->clusters[0].size(), in.backbone->clusters[1].size()));
  }
}

std::string bound_terms(const exchange::Plan& plan) {
  std::string terms = "ports " + number(plan.bounds.ports);
  if (plan.bounds.backbone) terms += ", backbone " + number(*plan.bounds.backbone);
  return fmt::format("{} s ({})", number(plan.lower_bound.value_or(0.0)), terms);
}

struct Route {
  std::size_t pieces = 0;
  double bytes = 0, first = 0, last = 0;
};

void describe_pieces(Summary& out, const exchange::Instance& in, const exchange::Plan& plan) {
  std::map<std::pair<std::int64_t, std::int64_t>, Route> routes;
  for (const exchange::Piece& p : plan.pieces) {
    const double end = p.start + exchange::piece_seconds(in, p);
    auto [it, fresh] = routes.try_emplace({p.from, p.to}, Route{0, 0, p.start, end});
    ++it->second.pieces;
    it->second.bytes += p.bytes;
    it->second.first = std::min(it->second.first, p.start);
    it->second.last = std::max(it->second.last, end);
  }
  out.line("who sends what to whom:");
  std::size_t shown = 0;
  for (const auto& [route, r] : routes) {
    if (shown++ == kMaxRows) break;
    out.line(fmt::format("  P{} -> P{}  {:>10} bytes in {} piece{}  [{}, {})", route.first,
                         route.second, number(r.bytes), r.pieces, r.pieces == 1 ? " " : "s",
                         number(r.first), number(r.last)));
  }
  if (routes.empty()) out.line("  nobody: there is no message");
  out.rows_left_out(std::min(shown, kMaxRows), routes.size());
}

}  // namespace

std::string exchange_summary(const exchange::Instance& in, const exchange::Plan& plan,
                             const CheckResult& verdict, std::string_view heading,
                             std::string_view source) {
  Summary out;
  describe_instance(out, in, heading, source);
  out.blank();
  out.field("algorithm", plan.algorithm);
  out.claims(plan, plan.algorithm, number(plan.makespan) + " s", bound_terms(plan));
  if (plan.steps) {
    out.field("steps", fmt::format("{} (step lower bound eta {} = {} + latency x {} steps)",
                                   plan.steps->count, number(plan.steps->lower_bound),
                                   number(plan.steps->eta_d), plan.steps->eta_s));
  }
  out.field("pieces", fmt::format("{} for {} messages", plan.pieces.size(), in.messages.size()));
  out.validator(verdict.valid, verdict.reason);
  out.blank();
  describe_pieces(out, in, plan);
  for (const std::string& note : plan.notes) out.line("note: " + note);
  return out.str();
}

std::string exchange_bound_summary(const exchange::Bounds& bounds, std::string_view heading) {
  Summary out;
  out.line(fmt::format("{}: lower bounds on the exchange time", heading));
  out.field("lower bound", number(bounds.lower_bound) + " s (the largest term)");
  out.field("  ports", number(bounds.ports));
  if (bounds.backbone) out.field("  backbone", number(*bounds.backbone));
  return out.str();
}

}  // namespace redist::text
