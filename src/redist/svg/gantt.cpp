// The Gantt chart renderer (gantt.hpp). Three parts:
//  - Renderer: render() computes the time scale, draws every bar (render_bar: solid, item by
//    item, or hatched within the global budgets), the legend, rows, axis, markers and notes,
//    then wraps them in the document with its style sheet (gantt_style.hpp);
//  - the size limits of a chart (require_chart_size);
//  - mark_conflict: the validator's first violation on the picture of an invalid plan.
#include "redist/svg/gantt.hpp"
#include "redist/svg/gantt_style.hpp"

#include "redist/common/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace redist::svg {
namespace {

// Layout (pixels).
constexpr double kMarginLeft = 96.0;
constexpr double kMarginRight = 28.0;
constexpr double kPlotWidth = kChartWidth - kMarginLeft - kMarginRight;
constexpr double kRowGap = 4.0;
constexpr double kBarInset = 1.0;         // vertical gap between a bar and its lane's edges
constexpr double kLabelFont = 11.0;       // the smallest text of a chart
constexpr double kMinLabelBand = 11.0;    // bands lower than this carry no label
constexpr double kMinSeparatorGap = 2.0;  // separators closer than this are not drawn
constexpr double kMinItemGap = 2.0;       // item starts closer than this: hatched span instead
constexpr double kSectionBand = 16.0;     // room above the rows for the sections' labels
constexpr double kStripHeight = 36.0;     // a strip's plotting height
// Global budgets, so that a pathological chart (e.g. many overlapping bars of an invalid
// schedule) stays linear in the number of bars.
constexpr std::int64_t kMaxSeparators = 200000;
constexpr std::int64_t kMaxItemRects = 100000;

using Out = std::string;

template <typename... Args>
void put(Out& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

bool finite(double x) { return std::isfinite(x); }

// ---- The chart renderer -------------------------------------------------------------------------

struct Scale {
  double lo = 0.0;
  double hi = 1.0;
  double px_per_unit = 1.0;
  double x(double t) const { return kMarginLeft + (t - lo) * px_per_unit; }
};

// The items of a bar are drawn one by one, as a single (possibly separated) bar, or as a hatched
// span.
enum class BarMode { solid, items, hatched };

class Renderer {
 public:
  explicit Renderer(const GanttChart& chart)
      : chart_(chart),
        lane_h_(finite(chart.lane_height) && chart.lane_height >= 8.0 && chart.lane_height <= 200.0
                    ? chart.lane_height
                    : kLaneHeight) {}

  std::string render() {
    compute_scale();
    const std::size_t lanes = std::max<std::size_t>(1, chart_.lane_labels.size());
    row_height_ = static_cast<double>(lanes) * lane_h_ + kRowGap;

    // Bars first: the legend needs to know whether some bar was drawn hatched.
    Out bars;
    bars.reserve(chart_.bars.size() * 160);
    for (const GanttBar& bar : chart_.bars) render_bar(bars, bar);

    Out legend;
    const double legend_bottom = render_legend(legend, chart_.alert.empty() ? 56.0 : 74.0);
    plot_top_ = legend_bottom + 26.0 + (chart_.sections.empty() ? 0.0 : kSectionBand);
    const std::size_t rows = chart_.row_labels.size();
    plot_bottom_ = plot_top_ + (rows == 0 ? 20.0 : static_cast<double>(rows) * row_height_);

    // The bars were laid out with plot_top_ = 0; shift them with a group transform.
    Out body;
    render_rows(body);
    render_axis(body);
    put(body, "<g transform=\"translate(0,{:.1f})\">\n", plot_top_);
    body += bars;
    body += "</g>\n";
    render_sections(body);
    const double bottom = render_markers_and_notes(body);
    const double height = std::ceil(bottom + 12.0);

    Out out;
    out.reserve(body.size() + legend.size() + 4096);
    put(out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
        "viewBox=\"0 0 {0:.0f} {1:.0f}\">\n",
        kChartWidth, height);
    out += gantt_style_sheet(chart_.classes);
    put(out, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"{:.0f}\" height=\"{:.0f}\"/>\n",
        kChartWidth, height);
    put(out, "<text class=\"title\" x=\"12\" y=\"24\">{}</text>\n", xml_escape(chart_.title));
    if (!chart_.subtitle.empty()) {
      put(out, "<text class=\"subtitle\" x=\"12\" y=\"42\">{}</text>\n",
          xml_escape(chart_.subtitle));
    }
    if (!chart_.alert.empty()) {
      put(out, "<text class=\"alert\" x=\"12\" y=\"60\">{}</text>\n", xml_escape(chart_.alert));
    }
    out += legend;
    out += body;
    out += "</svg>\n";
    return out;
  }

 private:
  void compute_scale() {
    double lo = 0.0;
    double hi = finite(chart_.horizon) && chart_.horizon > 0.0 ? chart_.horizon : 0.0;
    for (const GanttBar& bar : chart_.bars) {
      if (!drawable(bar)) continue;
      lo = std::min(lo, bar.start);
      hi = std::max(hi, bar.end);
    }
    for (const GanttMarker& marker : chart_.markers) {
      if (!finite(marker.time)) continue;
      lo = std::min(lo, marker.time);
      hi = std::max(hi, marker.time);
    }
    if (!(hi > lo)) hi = lo + 1.0;
    scale_.lo = lo;
    scale_.hi = hi;
    scale_.px_per_unit = kPlotWidth / (hi - lo);
    if (!finite(scale_.px_per_unit) || scale_.px_per_unit <= 0.0) {
      // hi - lo overflowed (e.g. -1e308 .. 1e308): fall back to a degenerate but valid axis.
      scale_.lo = 0.0;
      scale_.hi = 1.0;
      scale_.px_per_unit = kPlotWidth;
    }
  }

  bool drawable(const GanttBar& bar) const {
    return finite(bar.start) && finite(bar.end) && bar.end >= bar.start &&
           bar.row < chart_.row_labels.size() &&
           bar.lane < std::max<std::size_t>(1, chart_.lane_labels.size());
  }

  double lane_top(const GanttBar& bar) const {
    return static_cast<double>(bar.row) * row_height_ + kRowGap / 2.0 +
           static_cast<double>(bar.lane) * lane_h_;
  }

  BarMode mode_of(const GanttBar& bar, double* period_px) const {
    *period_px = 0.0;
    if (bar.hatched) return BarMode::hatched;
    if (bar.items <= 1 || !finite(bar.item_length) || bar.item_length <= 0.0 ||
        !finite(bar.item_period) || bar.item_period <= 0.0) {
      return BarMode::solid;
    }
    *period_px = bar.item_period * scale_.px_per_unit;
    if (bar.item_period <= bar.item_length) return BarMode::solid;  // back to back
    if (bar.items <= kMaxItemsDrawn && *period_px >= kMinItemGap &&
        item_rects_ + bar.items <= kMaxItemRects) {
      return BarMode::items;
    }
    return BarMode::hatched;
  }

  // Where a bar is drawn: its class, left edge, width, top and height in pixels.
  struct BarBox {
    std::string cls;
    double x0, width, y, h;
  };

  void render_bar(Out& out, const GanttBar& bar) {
    if (!drawable(bar)) return;
    // The band of the lane the bar fills (the whole lane unless the bar says otherwise).
    const double inner = lane_h_ - 2.0 * kBarInset;
    const double band_top = finite(bar.band_top) ? std::clamp(bar.band_top, 0.0, 1.0) : 0.0;
    const double band_bottom =
        finite(bar.band_bottom) ? std::clamp(bar.band_bottom, band_top, 1.0) : 1.0;
    const BarBox box{bar.css_class.empty() ? std::string() : css_name(bar.css_class),
                     scale_.x(bar.start), std::max(1.0, (bar.end - bar.start) * scale_.px_per_unit),
                     lane_top(bar) + kBarInset + band_top * inner,
                     std::max(1.0, (band_bottom - band_top) * inner)};
    double period_px = 0.0;
    const BarMode mode = mode_of(bar, &period_px);

    out += "<g><title>";
    out += xml_escape(bar.tooltip.empty() ? bar.label : bar.tooltip);
    out += "</title>";
    std::string label = bar.label;
    bool separated = false;
    switch (mode) {
      case BarMode::solid:
        separated = render_solid(out, bar, box, period_px);
        break;
      case BarMode::items:
        render_items(out, bar, box);
        break;
      case BarMode::hatched:
        render_hatched(out, bar, box, label);
        break;
    }
    if (separated) used_separators_ = true;
    if (mode == BarMode::items && !used_items_) {
      used_items_ = true;
      items_class_ = box.cls;
    }
    if (finite(bar.lead) && bar.lead > 0.0) {
      used_lead_ = true;
      put(out,
          "<rect class=\"lead\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\"/>",
          box.x0, box.y, std::clamp(bar.lead * scale_.px_per_unit, 1.0, box.width), box.h);
    }
    if (bar.conflict) {
      used_conflict_ = true;
      put(out,
          "<rect class=\"conflict\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
          "height=\"{:.1f}\"/>",
          box.x0 - 1.5, box.y - 1.5, box.width + 3.0, box.h + 3.0);
    }
    if (box.h >= kMinLabelBand) {
      render_label(out, bar, box, label, mode != BarMode::solid, separated);
    }
    out += "</g>\n";
  }

  // One rectangle, with separators between back-to-back items when they are far enough apart;
  // returns whether separators were drawn.
  bool render_solid(Out& out, const GanttBar& bar, const BarBox& box, double period_px) {
    put(out,
        "<rect class=\"bar {}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\"/>",
        box.cls, box.x0, box.y, box.width, box.h);
    if (bar.items <= 1 || period_px < kMinSeparatorGap ||
        separators_ + (bar.items - 1) > kMaxSeparators) {
      return false;
    }
    separators_ += bar.items - 1;
    out += "<path class=\"sep\" d=\"";
    for (std::int64_t j = 1; j < bar.items; ++j) {
      const double t = bar.start + static_cast<double>(j) * bar.item_period;
      put(out, "M{:.2f} {:.1f}v{:.1f}", scale_.x(t), box.y, box.h);
    }
    out += "\"/>";
    return true;
  }

  // The bar's span, pale, and one rectangle per item.
  void render_items(Out& out, const GanttBar& bar, const BarBox& box) {
    item_rects_ += bar.items;
    put(out,
        "<rect class=\"span {}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
        "height=\"{:.1f}\"/>",
        box.cls, box.x0, box.y, box.width, box.h);
    const double item_px = std::max(1.0, bar.item_length * scale_.px_per_unit);
    for (std::int64_t j = 0; j < bar.items; ++j) {
      const double t = bar.start + static_cast<double>(j) * bar.item_period;
      put(out,
          "<rect class=\"bar {}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
          "height=\"{:.1f}\"/>",
          box.cls, scale_.x(t), box.y, item_px, box.h);
    }
  }

  // A hatched rectangle (too many spaced items to draw one by one); the label names the period
  // when it fits.
  void render_hatched(Out& out, const GanttBar& bar, const BarBox& box, std::string& label) {
    if (!used_hatch_) {
      used_hatch_ = true;
      hatch_class_ = box.cls;
    }
    put(out,
        "<rect class=\"bar {} hatched\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
        "height=\"{:.1f}\"/>",
        box.cls, box.x0, box.y, box.width, box.h);
    if (bar.items > 1 && bar.item_period > bar.item_length) {
      std::string noted = label + " (period " + format_number(bar.item_period) + ")";
      if (text_width(noted, kLabelFont) + 6.0 <= box.width) label = std::move(noted);
    }
  }

  // The label centred on the bar when it fits (else the short label, else none); over separators,
  // on a patch of the bar's colour.
  void render_label(Out& out, const GanttBar& bar, const BarBox& box, std::string label,
                    bool dark_label, bool separated) {
    if (text_width(label, kLabelFont) + 6.0 > box.width) label = bar.short_label;
    const double label_width = text_width(label, kLabelFont);
    if (label.empty() || label_width + 6.0 > box.width) return;
    const double cx = box.x0 + box.width / 2.0;
    if (!claim_label_room(bar, box, cx - label_width / 2.0 - 2.0, cx + label_width / 2.0 + 2.0)) {
      return;
    }
    if (separated) {
      put(out,
          "<rect class=\"pill {}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
          "height=\"{:.1f}\"/>",
          box.cls, cx - label_width / 2.0 - 2.0, box.y + 1.0, label_width + 4.0, box.h - 2.0);
    }
    put(out, "<text class=\"lbl {}\" x=\"{:.2f}\" y=\"{:.1f}\">{}</text>",
        dark_label ? std::string("dark") : box.cls, cx, box.y + box.h / 2.0 + 4.0,
        xml_escape(label));
  }

  // Whether [left, right) of the bar's band is free of labels (bars of an invalid schedule may
  // overlap); if so, takes it. The labels of a band do not overlap, so the neighbours of `left`
  // in start order are the only candidates: O(log labels).
  bool claim_label_room(const GanttBar& bar, const BarBox& box, double left, double right) {
    auto& taken = labels_[{bar.row, bar.lane, std::lround(box.y * 10.0)}];
    auto next = taken.lower_bound(left);
    if (next != taken.end() && next->first < right) return false;
    if (next != taken.begin() && std::prev(next)->second > left) return false;
    taken.emplace(left, right);
    return true;
  }

  // Returns the y just below the legend.
  double render_legend(Out& out, double top) {
    struct Item {
      std::string swatch;  // SVG of the swatch, drawn at (0,0)..(16,10)
      std::string text;
    };
    std::vector<Item> items;
    for (const GanttLegendEntry& entry : chart_.legend) {
      items.push_back({fmt::format("<rect class=\"swatch {}{}\" x=\"0\" y=\"0\" width=\"16\" "
                                   "height=\"10\"/>",
                                   css_name(entry.css_class), entry.hatched ? " hatched" : ""),
                       entry.text});
    }
    if (used_items_ && !chart_.items_legend.empty()) {
      items.push_back({fmt::format("<rect class=\"span {0}\" x=\"0\" y=\"0\" width=\"16\" "
                                   "height=\"10\"/><rect class=\"swatch {0}\" x=\"2\" y=\"0\" "
                                   "width=\"4\" height=\"10\"/><rect class=\"swatch {0}\" "
                                   "x=\"10\" y=\"0\" width=\"4\" height=\"10\"/>",
                                   items_class_),
                       chart_.items_legend});
    }
    if (used_separators_ && !chart_.separated_legend.empty()) {
      items.push_back(
          {"<rect class=\"swatch\" x=\"0\" y=\"0\" width=\"16\" height=\"10\"/>"
           "<path class=\"sep\" d=\"M5.5 0v10M10.5 0v10\"/>",
           chart_.separated_legend});
    }
    if (used_hatch_ && !chart_.hatched_legend.empty()) {
      items.push_back({fmt::format("<rect class=\"swatch {} hatched\" x=\"0\" y=\"0\" "
                                   "width=\"16\" height=\"10\"/>",
                                   hatch_class_),
                       chart_.hatched_legend});
    }
    if (used_lead_ && !chart_.lead_legend.empty()) {
      items.push_back(
          {"<rect class=\"swatch\" x=\"0\" y=\"0\" width=\"16\" height=\"10\"/>"
           "<rect class=\"lead\" x=\"0\" y=\"0\" width=\"8\" height=\"10\"/>",
           chart_.lead_legend});
    }
    if (used_conflict_ && !chart_.conflict_legend.empty()) {
      items.push_back(
          {"<rect class=\"swatch\" x=\"0\" y=\"0\" width=\"16\" height=\"10\"/>"
           "<rect class=\"conflict\" x=\"-1.5\" y=\"-1.5\" width=\"19\" "
           "height=\"13\"/>",
           chart_.conflict_legend});
    }
    for (const GanttMarker& marker : chart_.markers) {
      if (!finite(marker.time)) continue;
      items.push_back({fmt::format("<line x1=\"0\" y1=\"5\" x2=\"16\" y2=\"5\" stroke=\"{}\" "
                                   "stroke-width=\"1.5\" stroke-dasharray=\"{}\"/>",
                                   xml_escape(marker.colour), marker.dashed ? "5,3" : "1.5,2"),
                       marker.label});
    }
    if (items.empty()) return top;
    double x = 12.0;
    double y = top;
    for (const Item& item : items) {
      const double w = 16.0 + 5.0 + text_width(item.text, 11.0) + 18.0;
      if (x > 12.0 && x + w > kChartWidth - 12.0) {
        x = 12.0;
        y += 18.0;
      }
      put(out, "<g class=\"legend\" transform=\"translate({:.1f},{:.1f})\">{}", x, y, item.swatch);
      put(out, "<text x=\"21\" y=\"9.5\">{}</text></g>\n", xml_escape(item.text));
      x += w;
    }
    return y + 12.0;
  }

  void render_rows(Out& out) {
    const std::size_t lanes = chart_.lane_labels.size();
    for (std::size_t r = 0; r < chart_.row_labels.size(); ++r) {
      const double top = plot_top_ + static_cast<double>(r) * row_height_;
      if (r % 2 == 0) {
        put(out, "<rect class=\"row-bg\" x=\"4\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{:.1f}\"/>",
            top, kChartWidth - 8.0, row_height_);
      }
      const double mid = top + row_height_ / 2.0;
      put(out, "<text class=\"row-label\" x=\"10\" y=\"{:.1f}\">{}</text>", mid + 4.5,
          xml_escape(chart_.row_labels[r]));
      for (std::size_t l = 0; l < lanes; ++l) {
        const double lane_y = top + kRowGap / 2.0 + static_cast<double>(l) * lane_h_;
        put(out, "<text class=\"lane-label\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>",
            kMarginLeft - 6.0, lane_y + lane_h_ / 2.0 + 3.0, xml_escape(chart_.lane_labels[l]));
        if (l > 0) {
          put(out,
              "<line class=\"lane-div\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>",
              kMarginLeft, lane_y, kMarginLeft + kPlotWidth, lane_y);
        }
      }
      out += '\n';
    }
  }

  void render_axis(Out& out) {
    const std::vector<double> ticks = nice_ticks(scale_.lo, scale_.hi, 10);
    for (double t : ticks) {
      const double x = scale_.x(t);
      put(out, "<line class=\"grid\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/>",
          x, plot_top_, plot_bottom_);
    }
    out += '\n';
    for (const double y : {plot_top_, plot_bottom_}) {
      put(out,
          "<line class=\"axis-line\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>",
          kMarginLeft, y, kMarginLeft + kPlotWidth, y);
    }
    std::vector<double> marker_x;
    for (const GanttMarker& marker : chart_.markers) {
      if (finite(marker.time)) marker_x.push_back(scale_.x(marker.time));
    }
    for (double t : ticks) {
      const double x = scale_.x(t);
      const std::string text = format_number(t);
      // A tick's number crossed by a marker's line is left out (its grid line stays).
      const double half = text_width(text, kLabelFont) / 2.0 + 3.0;
      if (std::any_of(marker_x.begin(), marker_x.end(),
                      [&](double m) { return std::abs(m - x) < half; })) {
        put(out,
            "<line class=\"axis-line\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" "
            "y2=\"{2:.1f}\"/><line class=\"axis-line\" x1=\"{0:.2f}\" y1=\"{3:.1f}\" "
            "x2=\"{0:.2f}\" y2=\"{4:.1f}\"/>\n",
            x, plot_top_ - 4.0, plot_top_, plot_bottom_, plot_bottom_ + 4.0);
        continue;
      }
      put(out,
          "<line class=\"axis-line\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\"/>"
          "<line class=\"axis-line\" x1=\"{0:.2f}\" y1=\"{3:.1f}\" x2=\"{0:.2f}\" y2=\"{4:.1f}\"/>"
          "<text class=\"axis tick\" x=\"{0:.2f}\" y=\"{5:.1f}\">{6}</text>"
          "<text class=\"axis tick\" x=\"{0:.2f}\" y=\"{7:.1f}\">{6}</text>\n",
          x, plot_top_ - 4.0, plot_top_, plot_bottom_, plot_bottom_ + 4.0, plot_top_ - 7.0, text,
          plot_bottom_ + 15.0);
    }
    put(out, "<text class=\"axis axis-title\" x=\"10\" y=\"{:.1f}\">{}</text>\n",
        plot_bottom_ + 15.0, xml_escape(chart_.time_label));
  }

  // Marker lines (over the bars) with labels under the axis, then the notes. Returns the y of
  // the last line of text.
  double render_markers_and_notes(Out& out) {
    double y = plot_bottom_ + 15.0;
    std::vector<std::vector<std::pair<double, double>>> lines;  // occupied x ranges per line
    for (const GanttMarker& marker : chart_.markers) {
      if (!finite(marker.time)) continue;
      const double x = scale_.x(marker.time);
      put(out,
          "<line class=\"marker\" x1=\"{0:.2f}\" y1=\"{1:.1f}\" x2=\"{0:.2f}\" y2=\"{2:.1f}\" "
          "stroke=\"{3}\" stroke-dasharray=\"{4}\"/>\n",
          x, plot_top_ - 2.0, plot_bottom_ + 20.0, xml_escape(marker.colour),
          marker.dashed ? "5,3" : "1.5,2");
      if (marker.label.empty()) continue;
      const double w = text_width(marker.label, kLabelFont);
      const double left = std::clamp(x - w / 2.0, 8.0, kChartWidth - 8.0 - w);
      std::size_t line = 0;
      for (; line < lines.size(); ++line) {
        bool free = true;
        for (const auto& [a, b] : lines[line]) {
          if (left < b + 8.0 && a < left + w + 8.0) free = false;
        }
        if (free) break;
      }
      if (line == lines.size()) lines.emplace_back();
      lines[line].emplace_back(left, left + w);
      const double ly = plot_bottom_ + 31.0 + 14.0 * static_cast<double>(line);
      put(out, "<text class=\"marker-label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\">{}</text>\n",
          left, ly, xml_escape(marker.colour), xml_escape(marker.label));
      y = std::max(y, ly);
    }
    for (const GanttStrip& strip : chart_.strips) y = render_strip(out, strip, y + 14.0);
    for (const std::string& note : chart_.notes) {
      y += 15.0;
      put(out, "<text class=\"note\" x=\"12\" y=\"{:.1f}\">{}</text>\n", y, xml_escape(note));
    }
    return y;
  }

  // Each section's boundary across the rows, and its label above them where it fits.
  void render_sections(Out& out) {
    if (chart_.sections.empty()) return;
    const double label_y = plot_top_ - kSectionBand - 6.0;
    put(out, "<text class=\"axis axis-title\" x=\"10\" y=\"{:.1f}\">{}</text>\n", label_y,
        xml_escape(chart_.sections_label));
    for (std::size_t i = 0; i < chart_.sections.size(); ++i) {
      const GanttSection& section = chart_.sections[i];
      if (!finite(section.start)) continue;
      const double end = i + 1 < chart_.sections.size() && finite(chart_.sections[i + 1].start)
                             ? chart_.sections[i + 1].start
                             : scale_.hi;
      const double x0 = scale_.x(section.start), x1 = scale_.x(std::max(end, section.start));
      // Across the labels' band and the rows, not across the tick numbers between them.
      put(out, "<path class=\"section\" d=\"M{0:.2f} {1:.1f}V{2:.1f}M{0:.2f} {3:.1f}V{4:.1f}\"/>",
          x0, plot_top_ - kSectionBand - 4.0, plot_top_ - 19.0, plot_top_, plot_bottom_);
      std::string label = section.label;
      if (text_width(label, kLabelFont) + 4.0 > x1 - x0) label = section.short_label;
      if (!label.empty() && text_width(label, kLabelFont) + 4.0 <= x1 - x0) {
        put(out, "<text class=\"section-label\" x=\"{:.2f}\" y=\"{:.1f}\">{}</text>",
            (x0 + x1) / 2.0, label_y, xml_escape(label));
      }
      out += '\n';
    }
  }

  // A strip whose top is at `top`: a bar per stretch of constant count (red above the limit), the
  // limit as a dashed line, its label left of it and its caption under it. Returns the y of its
  // last line of text.
  double render_strip(Out& out, const GanttStrip& strip, double top) {
    std::int64_t most = std::max<std::int64_t>(strip.limit, 1);
    for (const auto& [t, count] : strip.counts) most = std::max(most, count);
    const double bottom = top + kStripHeight;
    const auto y_of = [&](double count) {
      return bottom - kStripHeight * count / static_cast<double>(most);
    };
    put(out,
        "<rect class=\"strip-bg\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
        "height=\"{:.1f}\"/>",
        kMarginLeft, top, kPlotWidth, kStripHeight);
    put(out, "<text class=\"row-label\" x=\"10\" y=\"{:.1f}\">{}</text>",
        top + kStripHeight / 2.0 + 4.5, xml_escape(strip.label));
    for (std::size_t i = 0; i < strip.counts.size(); ++i) {
      const auto [t, count] = strip.counts[i];
      const double end = i + 1 < strip.counts.size() ? strip.counts[i + 1].first : scale_.hi;
      if (count <= 0 || !finite(t) || !finite(end) || end <= t) continue;
      put(out,
          "<rect class=\"strip-bar{}\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" "
          "height=\"{:.1f}\"/>",
          count > strip.limit ? " over" : "", scale_.x(t), y_of(static_cast<double>(count)),
          std::max(0.5, (end - t) * scale_.px_per_unit), bottom - y_of(static_cast<double>(count)));
    }
    const double limit_y = y_of(static_cast<double>(strip.limit));
    put(out,
        "<line class=\"strip-limit\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" "
        "y2=\"{:.1f}\"/>",
        kMarginLeft, limit_y, kMarginLeft + kPlotWidth, limit_y);
    put(out, "<text class=\"lane-label\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", kMarginLeft - 6.0,
        limit_y + 4.0, strip.limit);
    put(out, "<text class=\"note\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", kMarginLeft,
        bottom + 15.0, xml_escape(strip.caption));
    return bottom + 15.0;
  }

  const GanttChart& chart_;
  double lane_h_ = kLaneHeight;
  Scale scale_;
  double row_height_ = kLaneHeight + kRowGap;
  double plot_top_ = 0.0;
  double plot_bottom_ = 0.0;
  std::int64_t separators_ = 0;
  std::int64_t item_rects_ = 0;
  bool used_hatch_ = false;
  std::string hatch_class_;
  bool used_items_ = false;
  std::string items_class_;
  bool used_separators_ = false;
  bool used_conflict_ = false;
  bool used_lead_ = false;
  // The labels drawn on each band (row, lane, top in tenths of a pixel): left -> right.
  std::map<std::tuple<std::size_t, std::size_t, long>, std::map<double, double>> labels_;
};

}  // namespace

std::string render_svg(const GanttChart& chart) { return Renderer(chart).render(); }

// ---- The conflict of an invalid plan ----------------------------------------------------------

void mark_conflict(GanttChart& chart, const Conflict& conflict,
                   const std::vector<std::size_t>& transfer_of) {
  chart.alert = "invalid: " + conflict.reason;
  for (std::size_t k = 0; k < chart.bars.size() && k < transfer_of.size(); ++k) {
    const std::size_t t = transfer_of[k];
    chart.bars[k].conflict =
        std::find(conflict.entries.begin(), conflict.entries.end(), t) != conflict.entries.end();
  }
  if (!conflict.entries.empty()) {
    chart.conflict_legend = "named by the first violation (outlined in red)";
  }
}

GanttBar span_bar(std::size_t row, std::size_t lane, double start, double end, std::string label,
                  std::string css_class) {
  GanttBar b;
  b.row = row;
  b.lane = lane;
  b.start = start;
  b.end = end;
  b.label = std::move(label);
  b.css_class = std::move(css_class);
  return b;
}

void require_chart_size(const ChartLimits& limits, std::size_t rows, std::size_t items,
                        const std::string& option, const std::string& advice) {
  if (rows <= limits.max_rows && items <= limits.max_items) return;
  throw OptionError(
      fmt::format("a Gantt chart shows at most {} {} and {} {}, this one would have {} {}{}; {}",
                  limits.max_rows, limits.rows, limits.max_items, limits.items, rows, limits.rows,
                  items > 0 ? fmt::format(" and {} {}", items, limits.items) : "",
                  advice.empty() ? "omit --" + option : advice),
      option);
}

}  // namespace redist::svg
