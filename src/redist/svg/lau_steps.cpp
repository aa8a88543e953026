#include "redist/svg/lau_steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string_view>

#include "redist/common/error.hpp"
#include "redist/lau/evaluate.hpp"
#include "redist/lau/simulate.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {
namespace {

using lau::Message;
using lau::Mode;

constexpr const char* kRightColour = "#0072B2";  // Okabe-Ito blue
constexpr const char* kLeftColour = "#E69F00";   // Okabe-Ito orange
constexpr const char* kRedNodeColour = "#C62828";
constexpr double kLeftMargin = 170.0;  // row labels
constexpr double kRightMargin = 40.0;
constexpr double kGridTop = 92.0;    // below the title, the subtitle and the step numbers
constexpr double kAlertLine = 18.0;  // an invalid plan's reason, in red under the subtitle
constexpr double kRowGap = 40.0;     // between two node lines: room for an arrow and its label
constexpr double kMessageFont = 11.0;
constexpr double kLegendLine = 17.0;

template <typename... Args>
void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

const char* mode_text(Mode mode) { return mode == Mode::single ? "single-send" : "multi-send"; }

std::string node(std::size_t i) { return fmt::format("P{}", i); }

// The chart's geometry: column k (step k + 1) spans [x(k), x(k + 1)]; node i's line is at y(i),
// the repeated P0 at y(n). The grid starts at `top`, lower when an alert line is drawn.
struct Layout {
  std::size_t nodes = 0;
  std::int64_t steps = 0;
  double column = 0.0;
  double width = 0.0;
  double top = kGridTop;

  Layout(std::size_t n, std::int64_t t, double text_width, bool alert)
      : nodes(n),
        steps(t),
        column(std::clamp(960.0 / static_cast<double>(std::max<std::int64_t>(t, 1)), 44.0, 110.0)),
        top(kGridTop + (alert ? kAlertLine : 0.0)) {
    width = std::max({x(steps) + kRightMargin, text_width + 40.0, 620.0});
  }
  double x(std::int64_t step) const { return kLeftMargin + column * static_cast<double>(step); }
  double y(std::size_t row) const { return top + kRowGap * static_cast<double>(row); }
  double grid_bottom() const { return y(nodes) + 12.0; }
};

// The plan's lower bound in steps, when it states one (> 0 and finite: a plan read from a file
// states none, and a bound of 0 steps tells nothing).
lau::Time known_bound(const lau::Plan& plan) {
  const double bound = plan.lower_bound.value_or(0.0);
  if (!(bound > 0) || !std::isfinite(bound)) return {};
  return static_cast<std::int64_t>(bound);
}

// The title line: the caller's title, the algorithm, the mode, the makespan (of an invalid plan:
// the steps drawn) and the bound.
std::string title_line(const lau::Plan& plan, Mode mode, std::int64_t steps,
                       const std::string& title, bool invalid) {
  std::string line = plan.algorithm.empty() ? "flows" : plan.algorithm;
  const char* plural = steps == 1 ? "" : "s";
  line += invalid ? fmt::format(", {}: {} step{} drawn", mode_text(mode), steps, plural)
                  : fmt::format(", {}: makespan {} step{}", mode_text(mode), steps, plural);
  const lau::Time bound = known_bound(plan);
  if (bound) line += fmt::format(", lower bound {}", *bound);
  line += plan.optimal ? ", optimal: yes" : (bound ? ", optimal: no" : "");
  return title.empty() ? line : title + " — " + line;
}

void open_document(std::string& out, double width, double height) {
  put(out,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\">\n<defs>\n",
      width, height);
  for (const auto& [name, colour] : {std::pair{"right", kRightColour}, {"left", kLeftColour}}) {
    put(out,
        "<marker id=\"head-{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"9\" "
        "markerHeight=\"9\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path d=\"M0,0 L10,5 "
        "L0,10 z\" "
        "fill=\"{}\"/></marker>\n",
        name, colour);
  }
  put(out,
      "</defs>\n<style>\n"
      "text{{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;fill:#222}}\n"
      ".title{{font-size:16px;font-weight:bold}}\n.subtitle{{font-size:12px;fill:#444}}\n"
      ".axis{{font-size:10px;fill:#333;text-anchor:middle}}\n.axis-title{{font-style:italic}}\n"
      ".band{{fill:#f4f4f4}}\n.node-line{{stroke:#bbb;stroke-width:1}}\n"
      ".row-label{{font-size:12px;font-weight:bold}}\n.row-detail{{font-size:10px;fill:#555}}\n"
      ".red{{fill:{2}}}\n.ghost{{fill:#999;font-style:italic}}\n"
      ".right{{stroke:{0};stroke-width:2;marker-end:url(#head-right)}}\n"
      ".left{{stroke:{1};stroke-width:2;marker-end:url(#head-left)}}\n"
      ".amount{{font-size:{3}px;stroke:#fff;stroke-width:3px;paint-order:stroke;"
      "stroke-linejoin:round}}\n.bound{{stroke:#555;stroke-width:1.5;stroke-dasharray:2,3}}\n"
      ".legend{{font-size:11px}}\n.note{{font-size:10px;fill:#555}}\n"
      ".alert{{font-size:12px;fill:#D00000}}\n"
      ".conflict{{fill:none;stroke:#D00000;stroke-width:2.5}}\n</style>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
      kRightColour, kLeftColour, kRedNodeColour, kMessageFont);
}

// Column bands and step numbers (thinned so that labels stay 28 px apart), the axis title.
void draw_steps(std::string& out, const Layout& layout) {
  const std::int64_t every =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(28.0 / layout.column) + 1);
  for (std::int64_t k = 0; k < layout.steps; ++k) {
    if (k % 2 == 1) {
      put(out,
          "<rect class=\"band\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n",
          layout.x(k), layout.top - 14.0, layout.column, layout.grid_bottom() - layout.top + 14.0);
    }
    if ((k + 1) % every == 0 || k == 0) {
      put(out, "<text class=\"axis\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
          layout.x(k) + layout.column / 2, layout.top - 18.0, k + 1);
    }
  }
  put(out, "<text class=\"axis axis-title\" x=\"{:.1f}\" y=\"{:.1f}\">time step</text>\n",
      (layout.x(0) + layout.x(std::max<std::int64_t>(layout.steps, 1))) / 2, layout.top - 32.0);
}

// One line per node with its label (load and target; red nodes in red), and P0 again below.
void draw_nodes(std::string& out, const Layout& layout, const lau::Instance& instance,
                const std::vector<std::int64_t>& flows) {
  const double right = layout.x(std::max<std::int64_t>(layout.steps, 1));
  for (std::size_t i = 0; i <= layout.nodes; ++i) {
    const bool ghost = i == layout.nodes;
    const std::size_t v = ghost ? 0 : i;
    const bool red = !ghost && flows.size() == layout.nodes && lau::is_red(instance, flows, v);
    put(out,
        "<line class=\"node-line\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
        kLeftMargin - 6.0, layout.y(i), right, layout.y(i));
    put(out, "<text class=\"row-label{}\" x=\"12\" y=\"{:.1f}\">{}</text>\n",
        ghost ? " ghost"
        : red ? " red"
              : "",
        layout.y(i) + 4.0, node(v));
    const std::string detail =
        ghost ? "(the ring closes)"
              : fmt::format("load {} → {}", instance.loads[v], instance.targets[v]);
    put(out, "<text class=\"row-detail{}\" x=\"52\" y=\"{:.1f}\">{}</text>\n",
        ghost ? " ghost" : "", layout.y(i) + 4.0, xml_escape(detail));
  }
}

// One arrow per message: down (right, to i + 1) at 38% of its column, up (left) at 62%, the
// amount beside it when it fits (a link carries one direction, so the neighbouring columns leave
// about one column of room on that side).
void draw_messages(std::string& out, const Layout& layout, const std::vector<Message>& messages) {
  for (const Message& m : messages) {
    const bool right = m.sender == m.link;
    const double top = layout.y(m.link), bottom = layout.y(m.link + 1);
    const double x = layout.x(m.step) + layout.column * (right ? 0.38 : 0.62);
    const double from = right ? top + 4.0 : bottom - 4.0, to = right ? bottom - 4.0 : top + 4.0;
    put(out, "<g><title>step {}: {} → {}, {} unit{}</title>", m.step + 1, node(m.sender),
        node(m.receiver), m.amount, m.amount == 1 ? "" : "s");
    put(out, "<line class=\"{}\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>",
        right ? "right" : "left", x, from, x, to);
    const std::string amount = fmt::format("{}", m.amount);
    if (text_width(amount, kMessageFont) <= layout.column - 12.0) {
      put(out, "<text class=\"amount\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">{}</text>",
          right ? x - 4.0 : x + 4.0, (top + bottom) / 2 + 3.5, right ? "end" : "start", amount);
    }
    out += "</g>\n";
  }
}

// A dotted line at the end of step `bound` (the optimum), labelled, when it is below the makespan.
void draw_bound(std::string& out, const Layout& layout, const lau::Time& bound) {
  if (!bound || *bound >= layout.steps || *bound < 0) return;
  const double x = layout.x(*bound);
  put(out, "<line class=\"bound\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>\n",
      x, layout.top - 10.0, layout.grid_bottom());
  put(out, "<text class=\"note\" x=\"{:.1f}\" y=\"{:.1f}\">lower bound {}</text>\n", x + 3.0,
      layout.grid_bottom() + 12.0, *bound);
}

// The nodes an invalid plan's first violation names, outlined in red (row label and detail).
void draw_conflict(std::string& out, const Layout& layout, const std::vector<std::size_t>& nodes) {
  for (std::size_t v : nodes) {
    if (v >= layout.nodes) continue;
    put(out,
        "<rect class=\"conflict\" x=\"6\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"22\" "
        "rx=\"3\"/>\n",
        layout.y(v) - 13.0, kLeftMargin - 14.0);
  }
}

// The legend (one entry per line) and the notes; returns the y below them. Its arrows point as
// the chart's do: down for a message to the right (the next line), up for one to the left. With
// `outlined`, a line for the nodes outlined in red.
double draw_legend(std::string& out, double y, const std::vector<std::string>& notes,
                   bool outlined) {
  const std::pair<const char*, const char*> arrows[] = {
      {"right", "message to the right (Pi → Pi+1), drawn downward, labelled with its units"},
      {"left", "message to the left (Pi → Pi−1), drawn upward"}};
  for (const auto& [css, text] : arrows) {
    const bool down = std::string_view(css) == "right";
    put(out, "<line class=\"{}\" x1=\"27\" y1=\"{:.1f}\" x2=\"27\" y2=\"{:.1f}\"/>", css,
        down ? y - 13.0 : y + 2.0, down ? y + 2.0 : y - 13.0);
    put(out, "<text class=\"legend\" x=\"50\" y=\"{:.1f}\">{}</text>\n", y, xml_escape(text));
    y += kLegendLine;
  }
  put(out, "<text class=\"legend red\" x=\"14\" y=\"{:.1f}\" font-weight=\"bold\">Pi</text>", y);
  put(out,
      "<text class=\"legend\" x=\"50\" y=\"{:.1f}\">red node: sends more than its initial "
      "load</text>\n",
      y);
  y += kLegendLine;
  put(out,
      "<text class=\"legend\" x=\"14\" y=\"{0:.1f}\">load</text><text class=\"legend\" "
      "x=\"50\" y=\"{0:.1f}\">l → t: the node's initial load l and its target t</text>\n",
      y);
  y += kLegendLine;
  if (outlined) {
    put(out,
        "<rect class=\"conflict\" x=\"12\" y=\"{:.1f}\" width=\"30\" height=\"14\" "
        "rx=\"3\"/><text class=\"legend\" x=\"50\" y=\"{:.1f}\">outlined in red: a node "
        "the first violation names</text>\n",
        y - 11.0, y);
    y += kLegendLine;
  }
  for (const std::string& note : notes) {
    put(out, "<text class=\"note\" x=\"14\" y=\"{:.1f}\">{}</text>\n", y, xml_escape(note));
    y += kLegendLine - 3.0;
  }
  return y;
}

// What a chart draws, once its size is checked.
struct Drawn {
  std::optional<lau::Evaluation> evaluation;  // of flows that balance every node
  lau::Trace trace;
  std::int64_t steps = 0;
  std::string unfit;  // why no message is drawn: flows that are not one per node
};

// The messages of `flows` in `mode`, simulated within the chart's limits.
void trace_within_limits(Drawn& d, const lau::Instance& instance,
                         const std::vector<std::int64_t>& flows, Mode mode) {
  try {
    d.trace = mode == Mode::single ? lau::trace_single(instance, flows)
                                   : lau::trace_multi(instance, flows, kStepChartMaxSteps + 1);
  } catch (const lau::TooManySteps&) {
    require_step_chart_size(instance.size(), kStepChartMaxSteps + 1, 0);
  }
  const auto& messages = d.trace.messages;
  d.steps = d.trace.time.value_or(messages.empty() ? 0 : messages.back().step + 1);
  require_step_chart_size(instance.size(), d.steps, messages.size());
}

// The flows' time in `mode` comes from the closed forms (10^18 steps are known at once) and is
// checked before the simulation lists the messages; a deadlock is simulated up to the limit. Flows
// of an invalid plan (`invalid`) may leave nodes unbalanced (simulated within the limits, no
// closed form) or not be one per node (no message drawn); otherwise InputError at "flows".
Drawn checked_trace(const lau::Instance& instance, const std::vector<std::int64_t>& flows,
                    Mode mode, bool invalid = false) {
  require_step_chart_size(instance.size(), 0, 0);
  Drawn d;
  if (flows.size() != instance.size()) {
    if (!invalid) throw InputError("one flow per node expected", "flows");
    d.unfit = fmt::format("{} flows for {} nodes: no message drawn", flows.size(), instance.size());
    d.trace.time = 0;
    return d;
  }
  if (const auto v = lau::unbalanced_node(instance, flows)) {
    if (!invalid) throw InputError(fmt::format("the flows do not balance node {}", *v), "flows");
  } else {
    d.evaluation = lau::evaluate(instance, flows);
    const lau::Time t = mode == Mode::single ? d.evaluation->t_single : d.evaluation->t_multi;
    require_step_chart_size(instance.size(), t.value_or(0), 0);
  }
  trace_within_limits(d, instance, flows, mode);
  return d;
}

// The notes under the legend: why nothing or not everything is drawn.
std::vector<std::string> notes_of(const Drawn& d) {
  if (!d.unfit.empty()) return {d.unfit};
  if (!d.trace.time) return {"deadlock: the nodes left cannot send what they owe"};
  if (d.trace.messages.empty() && d.evaluation) return {"no message: every node holds its target"};
  return {};
}

std::string subtitle(std::size_t n, const Drawn& d) {
  const std::size_t m = d.trace.messages.size();
  std::string line = fmt::format("{} nodes, {} message{}", n, m, m == 1 ? "" : "s");
  if (d.evaluation)
    line += fmt::format(", traffic {}, h = {}", d.evaluation->traffic, d.evaluation->h);
  return line;
}

}  // namespace

void require_step_chart_size(std::size_t nodes, std::int64_t steps, std::size_t messages) {
  if (nodes <= kStepChartMaxNodes && steps <= kStepChartMaxSteps &&
      messages <= kStepChartMaxMessages) {
    return;
  }
  std::string size = fmt::format("{} nodes", nodes);
  if (steps > 0) size += fmt::format(", {} steps", steps);
  if (messages > 0) size += fmt::format(", {} messages", messages);
  throw OptionError(
      fmt::format("a step chart shows at most {} nodes, {} steps and {} messages, "
                  "this one would have {}; omit --gantt or draw a smaller instance",
                  kStepChartMaxNodes, kStepChartMaxSteps, kStepChartMaxMessages, size),
      "gantt");
}

void require_step_chart_size(const lau::Instance& instance, const std::vector<std::int64_t>& flows,
                             Mode mode) {
  checked_trace(instance, flows, mode);
}

std::string lau_steps_svg(const lau::Instance& instance, const lau::Plan& plan,
                          const std::string& title, const Conflict* conflict) {
  const std::size_t n = instance.size();
  const Drawn drawn = checked_trace(instance, plan.flows, plan.mode, conflict != nullptr);
  const std::string heading = title_line(plan, plan.mode, drawn.steps, title, conflict != nullptr);
  const std::string alert = conflict != nullptr ? "invalid: " + conflict->reason : "";
  const Layout layout(n, drawn.steps, std::max(text_width(heading, 16.0), text_width(alert, 12.0)),
                      !alert.empty());
  const std::vector<std::string> notes = notes_of(drawn);
  const bool outlined = conflict != nullptr && !conflict->entries.empty();
  const double legend_top = layout.grid_bottom() + 36.0;
  const double height = legend_top + (outlined ? 5 : 4) * kLegendLine +
                        static_cast<double>(notes.size()) * 14.0 + 6.0;

  std::string out;
  open_document(out, layout.width, height);
  put(out, "<text class=\"title\" x=\"12\" y=\"24\">{}</text>\n", xml_escape(heading));
  put(out, "<text class=\"subtitle\" x=\"12\" y=\"42\">{}</text>\n", subtitle(n, drawn));
  if (!alert.empty()) {
    put(out, "<text class=\"alert\" x=\"12\" y=\"60\">{}</text>\n", xml_escape(alert));
  }
  draw_steps(out, layout);
  draw_nodes(out, layout, instance, plan.flows);
  if (outlined) draw_conflict(out, layout, conflict->entries);
  draw_bound(out, layout, known_bound(plan));
  draw_messages(out, layout, drawn.trace.messages);
  draw_legend(out, legend_top, notes, outlined);
  out += "</svg>\n";
  return out;
}

}  // namespace redist::svg
