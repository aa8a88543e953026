#include "redist/svg/exchange_gantt.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "redist/common/tolerance.hpp"

namespace redist::svg {

namespace {

// Ten colours told apart by most readers (no red: red outlines a conflict).
constexpr std::array<const char*, 10> kPalette{"#4E79A7", "#F28E2B", "#59A14F", "#B07AA1",
                                               "#76B7B2", "#9C755F", "#EDC948", "#FF9DA7",
                                               "#2F4B7C", "#BAB0AC"};

// The title, the algorithm's claims and the backbone. An invalid plan's claims are not repeated:
// its chart states no lower bound nor optimality.
void describe_plan(GanttChart& chart, const exchange::Instance& in, const exchange::Plan& plan,
                   const std::string& title, bool invalid) {
  // A plan document that states no makespan reads as makespan 0: nothing to show.
  chart.title = fmt::format(
      "{}: {} pieces of {} messages{}", title, plan.pieces.size(), in.messages.size(),
      plan.makespan > 0 ? fmt::format(", makespan {} s", format_number(plan.makespan)) : "");
  if (invalid) {
    chart.subtitle = fmt::format("algorithm {}; its claims are not repeated here", plan.algorithm);
  } else if (plan.lower_bound > 0.0) {
    chart.subtitle =
        fmt::format("algorithm {}, lower bound {} s{}", plan.algorithm,
                    format_number(*plan.lower_bound), plan.optimal ? ", proven optimal" : "");
  }
  if (plan.steps && !invalid) {
    chart.subtitle +=
        fmt::format("{}{} steps", chart.subtitle.empty() ? "" : ", ", plan.steps->count);
  }
  if (in.backbone) {
    chart.subtitle += fmt::format(
        "{}backbone: at most {} crossing pieces at once between P{} and P{}",
        chart.subtitle.empty() ? "" : "; ", in.backbone->transfers,
        fmt::join(in.backbone->clusters[0], ",P"), fmt::join(in.backbone->clusters[1], ",P"));
  }
}

// How the pieces are coloured: one colour per message when the palette has one for each (with a
// legend entry per message), else one per sender (cycling through the palette).
struct Colours {
  bool by_message = false;

  std::string of(const exchange::Instance& in, std::size_t from, std::size_t to) const {
    if (by_message) {
      for (std::size_t m = 0; m < in.messages.size(); ++m) {
        if (static_cast<std::size_t>(in.messages[m].from) == from &&
            static_cast<std::size_t>(in.messages[m].to) == to) {
          return fmt::format("m{}", m);
        }
      }
      return "other";  // a piece of no message (an invalid plan)
    }
    return fmt::format("s{}", from % kPalette.size());
  }
};

Colours colour_pieces(GanttChart& chart, const exchange::Instance& in) {
  Colours colours;
  colours.by_message = in.messages.size() <= kPalette.size();
  if (colours.by_message) {
    for (std::size_t m = 0; m < in.messages.size(); ++m) {
      const exchange::Message& message = in.messages[m];
      chart.classes.push_back({fmt::format("m{}", m), kPalette[m]});
      chart.legend.push_back(
          {fmt::format("m{}", m), fmt::format("P{} \u2192 P{}", message.from, message.to)});
    }
    chart.classes.push_back({"other", "#555555"});
    return colours;
  }
  for (std::size_t c = 0; c < kPalette.size(); ++c) {
    chart.classes.push_back({fmt::format("s{}", c), kPalette[c]});
  }
  if (in.nodes <= kPalette.size()) {
    for (std::size_t i = 0; i < in.nodes; ++i) {
      chart.legend.push_back({fmt::format("s{}", i), fmt::format("from P{}", i)});
    }
  } else {
    chart.notes.push_back(fmt::format("colour: the sender, {} colours in turn (P{} as P0)",
                                      kPalette.size(), kPalette.size()));
  }
  return colours;
}

// Piece k as two bars (send and receive), its latency hatched; false when it cannot be placed: a
// node outside the instance, or a time span that is not finite or goes back.
bool add_piece(GanttChart& chart, const exchange::Instance& in, const Colours& colours,
               const exchange::Piece& p) {
  const auto n = static_cast<std::int64_t>(in.nodes);
  if (p.from < 0 || p.from >= n || p.to < 0 || p.to >= n) return false;
  const auto from = static_cast<std::size_t>(p.from), to = static_cast<std::size_t>(p.to);
  const double end = p.start + exchange::piece_seconds(in, p);
  if (!std::isfinite(p.start) || !std::isfinite(end) || end < p.start) return false;
  const std::string tip =
      fmt::format("P{} -> P{}: {} bytes, [{}, {}) s", from, to, format_number(p.bytes),
                  format_number(p.start), format_number(end));
  const std::string colour = colours.of(in, from, to);
  GanttBar send = span_bar(from, 0, p.start, end, fmt::format("to P{}", to), colour);
  send.short_label = fmt::format("\u2192P{}", to);
  send.tooltip = tip;
  send.lead = in.latency;
  GanttBar receive = span_bar(to, 1, p.start, end, fmt::format("from P{}", from), colour);
  receive.short_label = fmt::format("\u2190P{}", from);
  receive.tooltip = tip;
  receive.lead = in.latency;
  chart.bars.push_back(std::move(send));
  chart.bars.push_back(std::move(receive));
  return true;
}

// The crossing pieces running over time, for the backbone's strip: +1 at a crossing piece's start,
// -1 at its end (ends first at equal times: a piece's span is half open).
GanttStrip backbone_strip(const exchange::Instance& in, const exchange::Plan& plan) {
  const std::vector<std::uint8_t> cluster = exchange::cluster_of(in);
  std::vector<std::pair<double, int>> events;
  for (const exchange::Piece& p : plan.pieces) {
    const auto n = static_cast<std::int64_t>(in.nodes);
    if (p.from < 0 || p.from >= n || p.to < 0 || p.to >= n) continue;
    const auto from = static_cast<std::size_t>(p.from), to = static_cast<std::size_t>(p.to);
    if (cluster[from] == cluster[to]) continue;
    const double end = p.start + exchange::piece_seconds(in, p);
    if (!std::isfinite(p.start) || !std::isfinite(end) || !(end > p.start)) continue;
    events.emplace_back(p.start, +1);
    events.emplace_back(end, -1);
  }
  std::sort(events.begin(), events.end());
  GanttStrip strip;
  strip.label = "backbone";
  strip.limit = in.backbone->transfers;
  strip.caption =
      fmt::format("crossing pieces running (grey; red above the backbone's {} transfers, dashed)",
                  in.backbone->transfers);
  std::int64_t running = 0;
  for (std::size_t i = 0; i < events.size();) {
    const double t = events[i].first;
    for (; i < events.size() && events[i].first == t; ++i) running += events[i].second;
    if (strip.counts.empty() || strip.counts.back().second != running) {
      strip.counts.emplace_back(t, running);
    }
  }
  return strip;
}

}  // namespace

std::string exchange_gantt_svg(const exchange::Instance& in, const exchange::Plan& plan,
                               const std::string& title, const Conflict* conflict) {
  GanttChart chart;
  describe_plan(chart, in, plan, title, conflict != nullptr);
  for (std::size_t i = 0; i < in.nodes; ++i) chart.row_labels.push_back(fmt::format("P{}", i));
  chart.lane_labels = {"send", "recv"};
  const Colours colours = colour_pieces(chart, in);
  chart.time_label = "time (s)";
  std::vector<std::size_t> piece_of;  // the piece each bar draws
  std::size_t skipped = 0;
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    if (!add_piece(chart, in, colours, plan.pieces[k])) {
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
  if (in.latency > 0) {
    chart.lead_legend =
        fmt::format("latency ({} s): the hatched start of a piece", format_number(in.latency));
  }
  // The steps the planner laid out (a plan read from a document: the starts it lists).
  if (plan.steps) {
    for (std::size_t s = 0; s < plan.steps->starts.size(); ++s) {
      chart.sections.push_back(
          {plan.steps->starts[s], fmt::format("step {}", s + 1), fmt::format("{}", s + 1)});
    }
  }
  if (in.backbone) chart.strips.push_back(backbone_strip(in, plan));
  if (conflict == nullptr && plan.lower_bound > 0.0 && !at_most(plan.makespan, *plan.lower_bound)) {
    chart.markers.push_back({*plan.lower_bound,
                             fmt::format("lower bound {} s", format_number(*plan.lower_bound)),
                             false, "#009E73"});
  }
  if (plan.makespan > 0) {
    chart.markers.push_back({plan.makespan,
                             fmt::format("makespan {} s", format_number(plan.makespan)), true,
                             "#222222"});
  }
  chart.horizon = plan.makespan;
  if (conflict != nullptr) mark_conflict(chart, *conflict, piece_of);
  return render_svg(chart);
}

}  // namespace redist::svg
