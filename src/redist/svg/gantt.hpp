// A generic Gantt chart rendered as a standalone SVG document.
//
// The chart has rows (e.g. processors), each split into lanes (e.g. "send" and "recv" ports),
// and bars on those lanes along a time axis. A bar may stand for a run of `items` equal items of
// length `item_length` started every `item_period`; the renderer then decides, from the pixel
// scale, how much of that inner structure to draw:
//   - back to back (item_period <= item_length): one bar, with thin separators between items when
//     they are at least 2 px apart;
//   - spaced (item_period > item_length): one rectangle per item when there are at most
//     kMaxItemsDrawn items and they are at least 2 px apart, else the whole span with a light
//     hatched fill and " (period P)" appended to the label.
// Nothing loops over items beyond these bounds, and global budgets cap the number of separators
// and item rectangles, so a bar of 10^15 items costs as much as a bar of one item.
//
// Ring specifics live in ring_gantt.hpp; this part is meant to be reused for other platforms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redist::svg {

struct GanttBar {
  std::size_t row = 0;
  std::size_t lane = 0;
  double start = 0.0;
  double end = 0.0;         // end of the whole span
  std::string label;        // drawn inside the bar when it fits
  std::string short_label;  // drawn instead when only it fits (optional)
  std::string css_class;    // one of GanttChart::classes (sets the colour)
  std::string tooltip;      // <title> hover text; the label when empty
  bool hatched = false;     // force the light hatched fill
  // Optional inner structure: `items` items of length `item_length`, item j starting at
  // start + j * item_period (then end == start + (items - 1) * item_period + item_length).
  std::int64_t items = 1;
  double item_length = 0.0;
  double item_period = 0.0;
  // The part of the lane's height the bar fills, from its top (0) to its bottom (1): stacked
  // bars of one lane (e.g. transfers sharing a link, each a share of its bandwidth). The label
  // is drawn only when the band is at least 11 px high.
  double band_top = 0.0;
  double band_bottom = 1.0;
  // Outlined in red: the conflict an invalid schedule's check reports.
  bool conflict = false;
  // The length of a leading part of the bar, [start, start + lead), drawn hatched over its colour
  // (e.g. the latency of a transfer); 0: none.
  double lead = 0.0;
};

// A plain bar: `label` on [start, end) of lane `lane` of row `row`, coloured by `css_class`.
GanttBar span_bar(std::size_t row, std::size_t lane, double start, double end, std::string label,
                  std::string css_class);

struct GanttClass {
  std::string name;    // CSS class name ([A-Za-z0-9_-]; other characters are replaced by '_')
  std::string colour;  // e.g. "#0072B2"
};

struct GanttLegendEntry {
  std::string css_class;
  std::string text;
  bool hatched = false;
};

// A vertical line across all rows, e.g. at the makespan.
struct GanttMarker {
  double time = 0.0;
  std::string label;
  bool dashed = true;  // dashed (true) or dotted (false)
  std::string colour = "#222222";
};

// A part of the time axis that every row shares, from `start` to the next section's start (the
// last one to the end of the axis), e.g. a step of a step schedule: a line across the rows at its
// start, and its label above the rows when it fits between its boundaries (else `short_label`
// when that fits, else none).
struct GanttSection {
  double start = 0.0;
  std::string label;
  std::string short_label;
};

// A strip under the chart: a count over time (e.g. the pieces that cross a backbone) against a
// limit. `counts` holds (time, count from that time on), by increasing time; the count is 0
// before the first. Bars above the limit are red.
struct GanttStrip {
  std::string label;    // left of the strip (e.g. "backbone")
  std::string caption;  // under it (what the bars and the line mean)
  std::vector<std::pair<double, std::int64_t>> counts;
  std::int64_t limit = 0;
};

struct GanttChart {
  std::string title;
  std::string subtitle;                  // optional second line
  std::string alert;                     // optional third line, in red (an invalid schedule)
  std::vector<std::string> row_labels;   // one per row
  std::vector<std::string> lane_labels;  // one per lane (every row has the same lanes)
  std::vector<GanttBar> bars;
  std::vector<GanttClass> classes;
  std::vector<GanttLegendEntry> legend;
  // Legend text for the hatched fill; shown (with the colour of the first class that used it)
  // only when some bar is drawn hatched.
  std::string hatched_legend = "items too dense to draw one by one";
  // Legend texts for the other two ways items are drawn, shown only when some bar uses them:
  // spaced items one by one over a pale span, and back-to-back items with white separators.
  std::string items_legend = "spaced items: one dark rectangle each, the gaps pale";
  std::string separated_legend = "back-to-back items: a white line between two items";
  // Legend text for a bar outlined in red (GanttBar::conflict), shown only when some bar is.
  std::string conflict_legend = "conflict (outlined in red)";
  // Legend text for a bar's hatched start (GanttBar::lead), shown only when some bar has one.
  std::string lead_legend = "latency: the hatched start of a bar";
  std::vector<GanttMarker> markers;
  // Sections of the time axis (e.g. steps), by increasing start, and the word above their labels.
  std::vector<GanttSection> sections;
  std::string sections_label = "step";
  std::vector<GanttStrip> strips;  // under the rows, in order
  std::vector<std::string> notes;  // small lines under the axis
  std::string time_label = "time";
  // The axis spans at least [0, horizon], widened to cover every bar and marker; 0 (or a
  // non-finite value) means "from the bars", and an empty chart gets [0, 1].
  double horizon = 0.0;
  double lane_height = 16.0;  // pixels; taller lanes leave room for stacked bands
};

// Layout constants (pixels).
inline constexpr double kChartWidth = 1100.0;
inline constexpr double kLaneHeight = 16.0;
inline constexpr std::int64_t kMaxItemsDrawn = 200;

// Tick positions for an axis over [lo, hi]: multiples of a step 1, 2 or 5 times a power of ten,
// chosen so that there are about `target` intervals; includes 0 when lo <= 0 <= hi.
std::vector<double> nice_ticks(double lo, double hi, int target = 10);

// The step nice_ticks uses.
double nice_step(double lo, double hi, int target = 10);

// Escapes & < > " ' for XML text and attribute values.
std::string xml_escape(std::string_view text);

// A generous estimate of the rendered width (px) of a sans-serif UTF-8 string.
double text_width(std::string_view text, double font_size);

// Compact number formatting for labels: {:.6g} with "-0" printed as "0".
std::string format_number(double value);

// The size limits of a kind of chart: at most `max_rows` rows (named `rows`, "workers") and
// `max_items` drawn items (named `items`, "transfers").
struct ChartLimits {
  const char* rows;
  std::size_t max_rows;
  const char* items;
  std::size_t max_items;
};
// Throws OptionError at `option` for a chart over `limits` (`items` = 0: the rows alone, before
// planning): "a Gantt chart shows at most 1000 workers and 20000 transfers, this one would have
// 1001 workers; omit --gantt" (or `advice` in place of "omit --gantt" when given).
void require_chart_size(const ChartLimits& limits, std::size_t rows, std::size_t items,
                        const std::string& option, const std::string& advice = "");

// The whole SVG document, starting with "<svg" and ending with "</svg>\n".
std::string render_svg(const GanttChart& chart);

// The first violation a family's validator reports on an invalid schedule (CheckResult::reason),
// for `check --gantt`: the picture draws the schedule anyway, outlines in red the entries the
// violation names and writes the reason in red under the title. The entries are indices into the
// list the picture draws: transfers (ring runs, star and DLT transfers), exchange pieces, LAU
// nodes, SliceRing ring positions. Every family takes them from its validator's typed verdict
// (CheckResult::entries), never from the reason's wording.
struct Conflict {
  std::string reason;
  std::vector<std::size_t> entries;
};

// Marks `conflict` on `chart`: outlines its bars whose `transfer_of` index is named, and adds the
// reason as a red note under the title. `transfer_of[k]` is the entry bar k draws (or SIZE_MAX).
void mark_conflict(GanttChart& chart, const Conflict& conflict,
                   const std::vector<std::size_t>& transfer_of);

}  // namespace redist::svg
