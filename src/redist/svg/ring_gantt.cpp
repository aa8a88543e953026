#include "redist/svg/ring_gantt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::svg {
namespace {

using redist::ring::Direction;
using redist::ring::Instance;
using redist::ring::Run;
using redist::ring::Schedule;

constexpr const char* kNextColour = "#0072B2";  // Okabe-Ito blue
constexpr const char* kPrevColour = "#D55E00";  // Okabe-Ito vermillion

// Numbers in the title, markers and tooltips: up to 10 significant digits.
std::string number(double x) { return x == 0.0 ? "0" : fmt::format("{:.10g}", x); }

std::string processor(std::size_t i) { return fmt::format("P{}", i); }

// The cost of the link a run uses, or NaN when the run names no link of the instance.
double link_cost(const Instance& instance, std::size_t from, Direction dir) {
  const std::vector<double>& costs =
      dir == Direction::next ? instance.cost_next : instance.cost_prev;
  if (from >= costs.size()) return std::nan("");
  return costs[from];
}

}  // namespace

void require_gantt_size(std::size_t processors, std::size_t runs, const std::string& option,
                        const std::string& advice) {
  require_chart_size({"processors", kGanttMaxProcessors, "runs", kGanttMaxRuns}, processors, runs,
                     option, advice);
}

GanttChart ring_gantt_chart(const Instance& instance, const Schedule& schedule,
                            const std::string& title, const Conflict* conflict) {
  const std::size_t n = instance.size();
  require_gantt_size(n, schedule.transfers.size(), "gantt");
  GanttChart chart;
  chart.lane_labels = {"send", "recv"};
  chart.row_labels.reserve(n);
  for (std::size_t i = 0; i < n; ++i) chart.row_labels.push_back(processor(i));
  chart.classes = {{"next", kNextColour}, {"prev", kPrevColour}};
  chart.hatched_legend = "spaced items (period > cost), too dense to draw one by one";
  chart.items_legend = "spaced items (period > cost): each item dark, the waits between pale";
  chart.separated_legend = "items sent back to back: a white line between two items";
  chart.bars.reserve(2 * schedule.transfers.size());

  std::size_t skipped = 0;
  std::size_t drawn = 0;
  bool any_prev = false;
  double last_end = 0.0;
  std::vector<std::size_t> transfer_of;
  for (std::size_t index = 0; index < schedule.transfers.size(); ++index) {
    const Run& run = schedule.transfers[index];
    if (run.count == 0) continue;  // allowed and ignored (docs/formats.md)
    const bool known_from = run.from >= 0 && static_cast<std::uint64_t>(run.from) < n;
    const std::size_t from = known_from ? static_cast<std::size_t>(run.from) : 0;
    const double c = known_from ? link_cost(instance, from, run.dir) : std::nan("");
    const double p = run.period > 0.0 ? run.period : c;
    if (run.count < 0 || !known_from || !std::isfinite(c) || c <= 0.0 ||
        !std::isfinite(run.start) || !std::isfinite(run.period) || !std::isfinite(p)) {
      ++skipped;
      continue;
    }
    const std::size_t to = instance.receiver(from, run.dir);
    const double end = run.start + static_cast<double>(run.count - 1) * p + c;
    if (!std::isfinite(end)) {
      ++skipped;
      continue;
    }
    ++drawn;
    last_end = std::max(last_end, end);
    const bool next = run.dir == Direction::next;
    any_prev = any_prev || !next;
    const std::string count = fmt::format("×{}", run.count);
    std::string detail =
        fmt::format("{} item{} from {} to {}, cost {}", run.count, run.count == 1 ? "" : "s",
                    number(run.start), number(end), number(c));
    if (run.period > 0.0 && run.period != c) detail += ", period " + number(run.period);

    GanttBar bar;
    bar.start = run.start;
    bar.end = end;
    bar.css_class = next ? "next" : "prev";
    bar.items = run.count;
    bar.item_length = c;
    bar.item_period = p;

    bar.row = from;
    bar.lane = 0;
    bar.label = fmt::format("→{} {}", processor(to), count);
    bar.short_label = "→" + processor(to);
    bar.tooltip = fmt::format("{} → {} ({}): {}", processor(from), processor(to),
                              ring::to_string(run.dir), detail);
    chart.bars.push_back(bar);
    transfer_of.push_back(index);

    bar.row = to;
    bar.lane = 1;
    bar.label = fmt::format("←{} {}", processor(from), count);
    bar.short_label = "←" + processor(from);
    bar.tooltip = fmt::format("{} ← {} ({}): {}", processor(to), processor(from),
                              ring::to_string(run.dir), detail);
    chart.bars.push_back(std::move(bar));
    transfer_of.push_back(index);
  }

  chart.legend.push_back({"next", "next: Pi → P(i+1)", false});
  if (instance.bidirectional || any_prev)
    chart.legend.push_back({"prev", "prev: Pi → P(i−1)", false});

  const double makespan =
      std::isfinite(schedule.makespan) && schedule.makespan > 0.0 ? schedule.makespan : last_end;
  chart.horizon = makespan;

  std::string summary =
      fmt::format("{} — makespan {}", schedule.algorithm.empty() ? "schedule" : schedule.algorithm,
                  number(makespan));
  // A schedule states a bound when it is positive (a document without one reads as 0).
  const double bound = schedule.lower_bound.value_or(0.0);
  const bool has_bound = bound > 0.0 && std::isfinite(bound);
  if (has_bound) summary += ", lower bound " + number(bound);
  if (schedule.optimal) {
    summary += " (optimal)";
  } else if (has_bound && makespan > bound) {
    summary += fmt::format(" ({:.3g}% above the bound)", 100.0 * (makespan / bound - 1.0));
  }
  chart.title = title.empty() ? summary : title + " — " + summary;
  chart.subtitle = fmt::format(
      "{} processors on a {} ring; {} transfer{}, each a series of items sent one after another "
      "over one link, drawn on its sender's and its receiver's lanes",
      n, instance.bidirectional ? "bidirectional" : "unidirectional", drawn, drawn == 1 ? "" : "s");

  if (makespan > 0.0) {
    chart.markers.push_back({makespan, "makespan " + number(makespan), true, "#222222"});
  }
  if (has_bound && !same_time(bound, makespan)) {
    chart.markers.push_back({bound, "lower bound " + number(bound), false, "#555555"});
  }
  if (!same_time(last_end, makespan)) {
    chart.notes.push_back(
        fmt::format("note: the stated makespan {} differs from the end of the "
                    "last item, {}",
                    number(makespan), number(last_end)));
  }
  if (skipped > 0) {
    chart.notes.push_back(fmt::format(
        "note: {} run{} not drawn (negative count, unknown processor or direction, or bad times)",
        skipped, skipped == 1 ? "" : "s"));
  }
  if (conflict != nullptr) mark_conflict(chart, *conflict, transfer_of);
  return chart;
}

std::string ring_gantt_svg(const Instance& instance, const Schedule& schedule,
                           const std::string& title, const Conflict* conflict) {
  return render_svg(ring_gantt_chart(instance, schedule, title, conflict));
}

}  // namespace redist::svg
