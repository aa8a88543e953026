#include "redist/svg/exchange_gantt.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "redist/common/tolerance.hpp"

namespace redist::svg {

namespace {

// The title, the algorithm's claims and the backbone.
void describe_plan(GanttChart& chart, const exchange::Instance& in, const exchange::Plan& plan,
                   const std::string& title) {
  // A plan document that states no makespan reads as makespan 0: nothing to show.
  chart.title =
      fmt::format("{}: {} pieces of {} messages{}", title, plan.pieces.size(), in.messages.size(),
                  plan.makespan > 0 ? ", makespan " + format_number(plan.makespan) : "");
  if (plan.lower_bound > 0) {
    chart.subtitle =
        fmt::format("algorithm {}, lower bound {}{}", plan.algorithm,
                    format_number(plan.lower_bound), plan.optimal ? ", proven optimal" : "");
  }
  if (in.backbone) {
    chart.subtitle += fmt::format(
        "{}backbone: at most {} crossing pieces at once between P{} and P{}",
        chart.subtitle.empty() ? "" : "; ", in.backbone->transfers,
        fmt::join(in.backbone->clusters[0], ",P"), fmt::join(in.backbone->clusters[1], ",P"));
  }
}

// Piece k as two bars (send and receive); false when it cannot be placed: a node outside the
// instance, or a time span that is not finite or goes back.
bool add_piece(GanttChart& chart, const exchange::Instance& in, const exchange::Piece& p) {
  const auto n = static_cast<std::int64_t>(in.nodes);
  if (p.from < 0 || p.from >= n || p.to < 0 || p.to >= n) return false;
  const auto from = static_cast<std::size_t>(p.from), to = static_cast<std::size_t>(p.to);
  const double end = p.start + in.latency + p.bytes / in.rate(from, to);
  if (!std::isfinite(p.start) || !std::isfinite(end) || end < p.start) return false;
  const std::string tip =
      fmt::format("P{} -> P{}: {} bytes, [{}, {})", from, to, format_number(p.bytes),
                  format_number(p.start), format_number(end));
  GanttBar send = span_bar(from, 0, p.start, end, fmt::format("to P{}", to), "send");
  send.short_label = fmt::format("{}", to);
  send.tooltip = tip;
  GanttBar receive = span_bar(to, 1, p.start, end, fmt::format("from P{}", from), "recv");
  receive.short_label = fmt::format("{}", from);
  receive.tooltip = tip;
  chart.bars.push_back(std::move(send));
  chart.bars.push_back(std::move(receive));
  return true;
}

}  // namespace

std::string exchange_gantt_svg(const exchange::Instance& in, const exchange::Plan& plan,
                               const std::string& title, const Conflict* conflict) {
  GanttChart chart;
  describe_plan(chart, in, plan, title);
  for (std::size_t i = 0; i < in.nodes; ++i) chart.row_labels.push_back(fmt::format("P{}", i));
  chart.lane_labels = {"send", "recv"};
  chart.classes = {{"send", "#0072B2"}, {"recv", "#E69F00"}};
  chart.legend = {{"send", "sending a piece (label: its receiver)"},
                  {"recv", "receiving a piece (label: its sender)"}};
  chart.time_label = "time (s)";
  std::vector<std::size_t> piece_of;  // the piece each bar draws
  std::size_t skipped = 0;
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    if (!add_piece(chart, in, plan.pieces[k])) {
      ++skipped;
      continue;
    }
    piece_of.insert(piece_of.end(), 2, k);
  }
  if (skipped > 0) {
    chart.notes.push_back(fmt::format(
        "{} piece{} not drawn: an unknown node or a time span that is not finite and forward",
        skipped, skipped == 1 ? "" : "s"));
  }
  if (plan.lower_bound > 0 && !at_most(plan.makespan, plan.lower_bound)) {
    chart.markers.push_back({plan.lower_bound, "lower bound", false, "#009E73"});
  }
  if (plan.makespan > 0) chart.markers.push_back({plan.makespan, "makespan", true, "#222222"});
  chart.horizon = plan.makespan;
  if (conflict != nullptr) mark_conflict(chart, *conflict, piece_of);
  return render_svg(chart);
}

}  // namespace redist::svg
