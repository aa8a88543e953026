#include "redist/svg/exchange_gantt.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "redist/common/tolerance.hpp"

namespace redist::svg {

std::string exchange_gantt_svg(const exchange::Instance& in, const exchange::Plan& plan,
                               const std::string& title) {
  GanttChart chart;
  chart.title = fmt::format("{}: {} pieces of {} messages, makespan {}", title, plan.pieces.size(),
                            in.messages.size(), format_number(plan.makespan));
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
  for (std::size_t i = 0; i < in.nodes; ++i) chart.row_labels.push_back(fmt::format("P{}", i));
  chart.lane_labels = {"send", "recv"};
  chart.classes = {{"send", "#0072B2"}, {"recv", "#E69F00"}};
  chart.legend = {{"send", "sending a piece (label: its receiver)"},
                  {"recv", "receiving a piece (label: its sender)"}};
  chart.time_label = "time (s)";
  for (const exchange::Piece& p : plan.pieces) {
    const auto from = static_cast<std::size_t>(p.from), to = static_cast<std::size_t>(p.to);
    const double end = p.start + in.latency + p.bytes / in.rate(from, to);
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
  }
  if (plan.lower_bound > 0 && !at_most(plan.makespan, plan.lower_bound)) {
    chart.markers.push_back({plan.lower_bound, "lower bound", false, "#009E73"});
  }
  chart.markers.push_back({plan.makespan, "makespan", true, "#222222"});
  chart.horizon = plan.makespan;
  return render_svg(chart);
}

}  // namespace redist::svg
