#include "redist/svg/line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/svg/gantt.hpp"

namespace redist::svg {

namespace {

constexpr double kWidth = 900, kPlotHeight = 410;
constexpr double kLeft = 80, kRight = 220;  // margins; legend on the right
constexpr double kPlotWidth = kWidth - kLeft - kRight;
constexpr double kTitleSize = 16, kSmallestTitleSize = 12, kLabelSize = 12;
constexpr double kSmallestLabelSize = kLinePlotMinFontSize;
constexpr double kCaptionSize = 11;
constexpr double kMargin = 0.04;   // share of an automatic axis range left free on each side
constexpr double kMarkerSize = 4;  // a marker's radius (px)
constexpr double kDodge = 7;       // horizontal distance between coincident markers (px)
constexpr double kLegendWidth = kRight - 20 - 32;  // room for a legend label
// Colour-blind-safe palette (Okabe-Ito, with its pale yellow, unreadable on white, replaced by a
// dark wine), cycled.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#882255"};

// Series past the palette's length are dashed, so that no two look alike.
std::string dash(std::size_t k) {
  return k < std::size(kColours) ? "" : " stroke-dasharray=\"6 4\"";
}

std::string colour(const Series& s, std::size_t k) {
  return s.colour.empty() ? kColours[k % std::size(kColours)] : s.colour;
}

// --- Text fitting ----------------------------------------------------------------------------

// UTF-8 code points (continuation bytes are not counted).
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A generous estimate of the rendered width of sans-serif text (wide glyphs: 0.6 em, bold 0.68).
double text_width(std::string_view text, double size, bool bold = false) {
  return static_cast<double>(characters(text)) * size * (bold ? 0.68 : 0.6);
}

// The longest prefix of `word` (whole code points, at least one) that fits `width`.
std::size_t fitting_prefix(std::string_view word, double width, double size, bool bold) {
  std::size_t end = 0;
  for (std::size_t i = 1; i <= word.size(); ++i) {
    if (i < word.size() && (word[i] & 0xC0) == 0x80) continue;
    if (end > 0 && text_width(word.substr(0, i), size, bold) > width) break;
    end = i;
  }
  return end;
}

std::vector<std::string> wrap(std::string_view text, double width, double size, bool bold);

// Greedy word wrap to `width`; a word longer than a line is cut between code points; a line
// break in the text is kept.
std::vector<std::string> wrap_lines(std::string_view text, double width, double size, bool bold) {
  std::vector<std::string> lines;
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    for (std::string& line : wrap(text.substr(pos, end - pos), width, size, bold))
      lines.push_back(std::move(line));
    pos = end + 1;
  }
  return lines;
}

// wrap_lines for text without line breaks.
std::vector<std::string> wrap(std::string_view text, double width, double size, bool bold) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find(' ', pos), text.size());
    std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word.empty()) continue;
    const std::string joined = line.empty() ? std::string(word) : line + ' ' + std::string(word);
    if (text_width(joined, size, bold) <= width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    while (text_width(word, size, bold) > width) {
      const std::size_t cut = fitting_prefix(word, width, size, bold);
      lines.emplace_back(word.substr(0, cut));
      word.remove_prefix(cut);
    }
    line = std::string(word);
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

struct TextBlock {
  std::vector<std::string> lines;
  double size = 0;
  double line_height() const { return 1.25 * size; }
  double height() const { return line_height() * static_cast<double>(lines.size()); }
};

// The title on one line at the largest size from 16 px down to 12 px that allows it; else on at
// most two lines at the largest size that allows it; else on as many lines as it takes at 12 px.
TextBlock fit_title(std::string_view title) {
  const double width = kWidth - kLeft - 20;
  for (double size = kTitleSize; size >= kSmallestTitleSize; size -= 2) {
    if (text_width(title, size, true) <= width) return {wrap(title, width, size, true), size};
  }
  for (double size = kTitleSize; size >= kSmallestTitleSize; size -= 2) {
    TextBlock block{wrap(title, width, size, true), size};
    if (block.lines.size() <= 2 || size <= kSmallestTitleSize) return block;
  }
  return {};
}

// A label on one line at 12 px or 11 px, else wrapped at 11 px: never smaller.
TextBlock fit_label(std::string_view text, double width) {
  if (text.find('\n') == std::string_view::npos && text_width(text, kLabelSize) <= width)
    return {wrap_lines(text, width, kLabelSize, false), kLabelSize};
  return {wrap_lines(text, width, kSmallestLabelSize, false), kSmallestLabelSize};
}

// --- Axis ranges ---------------------------------------------------------------------------

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

bool categorical(const LinePlot& p) { return !p.x_categories.empty(); }
bool log_axis(const LinePlot& p) { return p.log_x && !categorical(p); }

bool usable(const LinePlot& p, double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && (!log_axis(p) || x > 0);
}

std::size_t size_of(const Series& s) { return std::min(s.x.size(), s.y.size()); }

double error_of(const Series& s, std::size_t i) {
  return i < s.error.size() && std::isfinite(s.error[i]) ? std::abs(s.error[i]) : 0.0;
}

// The axis range: each bound the caller fixed as given, each other bound the data's moved out by
// kMargin of the span, so that no point sits on the frame, and further out to the next tick of
// `ticks` ticks when `to_ticks`, so that the ticks span the data. A single value gets +-5% (at
// least +-0.5); no data gets [0, 1].
Range axis_range(Range data, std::optional<double> lo, std::optional<double> hi, bool to_ticks,
                 int ticks) {
  if (data.empty()) data = Range{0.0, 1.0};
  if (lo && hi) return *hi > *lo ? Range{*lo, *hi} : Range{*lo, *lo + 1};
  Range r{lo.value_or(data.lo), hi.value_or(data.hi)};
  if (r.hi <= r.lo) {
    const double pad = std::max(0.05 * std::abs(lo ? r.lo : r.hi), 0.5);
    r = lo   ? Range{r.lo, r.lo + 2 * pad}
        : hi ? Range{r.hi - 2 * pad, r.hi}
             : Range{r.lo - pad, r.hi + pad};
  } else {
    const double pad = kMargin * (r.hi - r.lo);
    if (!lo) r.lo -= pad;
    if (!hi) r.hi += pad;
  }
  if (!to_ticks) return r;
  // Out to a tick below the smallest value and above the largest (the step depends on the range:
  // repeat until it settles).
  for (int round = 0; round < 4; ++round) {
    const double step = nice_step(r.lo, r.hi, ticks);
    Range next = r;
    if (!lo) next.lo = std::min(r.lo, std::floor(std::min(data.lo, r.hi) / step + 1e-9) * step);
    if (!hi) next.hi = std::max(r.hi, std::ceil(std::max(data.hi, r.lo) / step - 1e-9) * step);
    if (next.lo == r.lo && next.hi == r.hi) break;
    r = next;
  }
  return r;
}

constexpr int kXTicks = 11, kYTicks = 6;

// Axis values: log10(x) on a logarithmic axis.
double axis_x(const LinePlot& p, double x) { return log_axis(p) ? std::log10(x) : x; }

std::pair<Range, Range> plot_ranges(const LinePlot& p) {
  Range xs, ys;
  for (const Series& s : p.series) {
    for (std::size_t k = 0; k < size_of(s); ++k) {
      if (!usable(p, s.x[k], s.y[k])) continue;
      xs.add(axis_x(p, s.x[k]));
      ys.add(s.y[k] - error_of(s, k));
      ys.add(s.y[k] + error_of(s, k));
    }
  }
  const Range y = axis_range(ys, p.y_min, p.y_max, true, kYTicks);
  if (categorical(p)) return {Range{-0.5, static_cast<double>(p.x_categories.size()) - 0.5}, y};
  auto log = [&](std::optional<double> v) -> std::optional<double> {
    if (!v || !p.log_x) return v;
    return std::log10(*v);
  };
  return {axis_range(xs, log(p.x_min), log(p.x_max), !p.log_x, kXTicks), y};
}

// --- Drawing -------------------------------------------------------------------------------

// The category names under a categorical axis, each wrapped to its slot: 12 px if every name
// fits on two lines, else 11 px.
std::vector<TextBlock> category_labels(const LinePlot& p) {
  std::vector<TextBlock> out;
  if (!categorical(p)) return out;
  const double slot = kPlotWidth / static_cast<double>(p.x_categories.size()) - 6;
  double size = kLabelSize;
  for (const std::string& name : p.x_categories) {
    if (wrap_lines(name, slot, kLabelSize, false).size() > 2) size = kSmallestLabelSize;
  }
  for (const std::string& name : p.x_categories)
    out.push_back({wrap_lines(name, slot, size, false), size});
  return out;
}

// Pixel positions of the plot area and of its axes.
struct Frame {
  const LinePlot& plot;
  Range xs, ys;
  double top = 50;
  double tick_labels = 0;  // extra height of category names on more than one line
  double x(double v) const {
    return kLeft + (axis_x(plot, v) - xs.lo) / (xs.hi - xs.lo) * kPlotWidth;
  }
  double y(double v) const {
    return top + kPlotHeight - (v - ys.lo) / (ys.hi - ys.lo) * kPlotHeight;
  }
  double bottom() const { return top + kPlotHeight; }
  double x_label_baseline() const { return bottom() + 42 + tick_labels; }
};

std::string text_lines(const TextBlock& block, double x, double first_baseline,
                       const char* attributes) {
  std::string out;
  for (std::size_t i = 0; i < block.lines.size(); ++i) {
    out += fmt::format("<text x=\"{:.2f}\" y=\"{:.1f}\" font-size=\"{}\"{}>{}</text>\n", x,
                       first_baseline + block.line_height() * static_cast<double>(i), block.size,
                       attributes, xml_escape(block.lines[i]));
  }
  return out;
}

std::string grid(const Frame& f, const std::vector<TextBlock>& categories) {
  std::string out;
  if (categorical(f.plot)) {
    for (std::size_t i = 0; i < categories.size(); ++i) {
      const double x = f.x(static_cast<double>(i));
      out += fmt::format(
          "<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>\n"
          "<line x1=\"{0:.2f}\" y1=\"{2}\" x2=\"{0:.2f}\" y2=\"{3}\" stroke=\"#333\"/>\n",
          x, f.top, f.bottom(), f.bottom() + 5);
      out += text_lines(categories[i], x, f.bottom() + 18,
                        " text-anchor=\"middle\" fill=\"#333\" class=\"category\"");
    }
  } else {
    std::vector<double> x_ticks;
    if (f.plot.log_x) {
      for (double e = std::ceil(f.xs.lo); e <= f.xs.hi + 1e-9; ++e)
        x_ticks.push_back(std::pow(10.0, e));
    } else {
      x_ticks = nice_ticks(f.xs.lo, f.xs.hi, kXTicks);
    }
    for (double t : x_ticks) {
      const double x = f.x(t);
      if (x < kLeft - 0.5 || x > kLeft + kPlotWidth + 0.5) continue;
      out += fmt::format(
          "<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>\n"
          "<text x=\"{0:.2f}\" y=\"{3}\" text-anchor=\"middle\" fill=\"#333\" "
          "class=\"x-tick\">{4}</text>\n",
          x, f.top, f.bottom(), f.bottom() + 18, xml_escape(format_number(t)));
    }
  }
  for (double t : nice_ticks(f.ys.lo, f.ys.hi, kYTicks)) {
    const double y = f.y(t);
    if (y < f.top - 0.5 || y > f.bottom() + 0.5) continue;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.2f}\" x2=\"{2}\" y2=\"{1:.2f}\" stroke=\"#e5e5e5\"/>\n"
        "<text x=\"{3}\" y=\"{4:.2f}\" text-anchor=\"end\" fill=\"#333\" "
        "class=\"y-tick\">{5}</text>\n",
        kLeft, y, kLeft + kPlotWidth, kLeft - 8, y + 4, xml_escape(format_number(t)));
  }
  return out;
}

std::string axes(const Frame& f, const TextBlock& x_label, const TextBlock& y_label) {
  std::string out = fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"#333\"/>\n",
      kLeft, f.top, kPlotWidth, kPlotHeight);
  out +=
      text_lines(x_label, kLeft + kPlotWidth / 2, f.x_label_baseline(), " text-anchor=\"middle\"");
  // The y label, rotated, its lines from left to right ending 50 px left of the frame.
  const double centre = f.top + kPlotHeight / 2;
  for (std::size_t i = 0; i < y_label.lines.size(); ++i) {
    const double x = 20 + y_label.line_height() * (static_cast<double>(i) + 1 -
                                                   static_cast<double>(y_label.lines.size()));
    out += fmt::format(
        "<text transform=\"translate({0:.1f} {1}) rotate(-90)\" text-anchor=\"middle\" "
        "font-size=\"{2}\">{3}</text>\n",
        std::max(x, 11.0), centre, y_label.size, xml_escape(y_label.lines[i]));
  }
  return out;
}

MarkerShape shape_of(const Series& s, std::size_t k) {
  constexpr MarkerShape kShapes[] = {MarkerShape::circle, MarkerShape::square,
                                     MarkerShape::triangle, MarkerShape::triangle_down,
                                     MarkerShape::rhombus};
  return s.shape.value_or(kShapes[k % std::size(kShapes)]);
}

const char* shape_name(MarkerShape shape) {
  switch (shape) {
    case MarkerShape::circle:
      return "circle";
    case MarkerShape::square:
      return "square";
    case MarkerShape::triangle:
      return "triangle";
    case MarkerShape::triangle_down:
      return "triangle_down";
    case MarkerShape::rhombus:
      return "rhombus";
    case MarkerShape::diamond:
      return "diamond";
  }
  return "circle";
}

// A square on its corner around (x, y), `d` from the centre to each corner.
std::string diamond(double x, double y, double d, const std::string& tag,
                    const std::string& paint) {
  return fmt::format(
      "<polygon {} points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\" {}/>\n", tag,
      x, y - d, x + d, y, x, y + d, x - d, y, paint);
}

// A marker of radius about `r` centred on (x, y); `what`: "marker" or "legend-mark".
std::string marker(MarkerShape shape, const std::string& fill, double x, double y, double r,
                   std::size_t series, const char* what) {
  const std::string tag = fmt::format(
      "class=\"{}\" data-series=\"{}\" data-shape=\"{}\" data-x=\"{:.2f}\" data-y=\"{:.2f}\"", what,
      series, shape_name(shape), x, y);
  const std::string paint = fmt::format("fill=\"{}\" stroke=\"white\" stroke-width=\"0.8\"", fill);
  switch (shape) {
    case MarkerShape::diamond:  // hollow
      return diamond(x, y, r + 2, tag,
                     fmt::format("fill=\"white\" stroke=\"{}\" stroke-width=\"2\"", fill));
    case MarkerShape::rhombus:
      return diamond(x, y, r * 1.3, tag, paint);
    case MarkerShape::square: {
      const double d = r * 0.9;
      return fmt::format(
          "<rect {} x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" {}/>\n", tag,
          x - d, y - d, 2 * d, 2 * d, paint);
    }
    case MarkerShape::triangle:
    case MarkerShape::triangle_down: {
      const double d = r * 1.25, sign = shape == MarkerShape::triangle ? 1 : -1;
      return fmt::format("<polygon {} points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\" {}/>\n",
                         tag, x, y - sign * d, x + 0.87 * d, y + sign * 0.5 * d, x - 0.87 * d,
                         y + sign * 0.5 * d, paint);
    }
    case MarkerShape::circle:
      break;
  }
  return fmt::format("<circle {} cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" {}/>\n", tag, x, y, r, paint);
}

using Vertex = std::pair<double, double>;

// A series' vertices in pixels, with the steps of a step function.
std::vector<Vertex> vertices(const Frame& f, const Series& s) {
  std::vector<Vertex> out;
  double last_y = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < size_of(s); ++i) {
    if (!usable(f.plot, s.x[i], s.y[i])) continue;
    const double x = f.x(s.x[i]), y = f.y(s.y[i]);
    if (s.step && !std::isnan(last_y)) out.emplace_back(x, last_y);
    out.emplace_back(x, y);
    last_y = y;
  }
  // A distribution keeps its last value: continue the step to the right edge.
  if (s.step && !std::isnan(last_y)) out.emplace_back(kLeft + kPlotWidth, last_y);
  return out;
}

std::string points_text(const std::vector<Vertex>& v) {
  std::string out;
  for (const auto& [x, y] : v) out += fmt::format("{:.2f},{:.2f} ", x, y);
  return out;
}

// How many later series are drawn exactly over series k (same vertices, same kind of mark): k is
// then drawn wider (and its markers larger), so that it shows around them instead of vanishing.
std::size_t hidden_under(const LinePlot& p, const std::vector<std::string>& points, std::size_t k) {
  std::size_t n = 0;
  for (std::size_t j = k + 1; j < p.series.size(); ++j) {
    const Series &a = p.series[k], &b = p.series[j];
    n += !points[k].empty() && points[j] == points[k] && a.line == b.line &&
         a.markers == b.markers && a.step == b.step;
  }
  return n;
}

bool near(const Vertex& a, const Vertex& b) {
  return std::abs(a.first - b.first) <= 2.5 && std::abs(a.second - b.second) <= 2.5;
}

// How many later lines run along segment i of series k (both ends within 2.5 px: a line that
// close leaves at most a sliver of this one visible).
std::size_t segment_hidden(const LinePlot& p, const std::vector<std::vector<Vertex>>& v,
                           std::size_t k, std::size_t i) {
  std::size_t n = 0;
  const Vertex &a = v[k][i], &b = v[k][i + 1];
  for (std::size_t j = k + 1; j < p.series.size(); ++j) {
    if (!p.series[j].line) continue;
    for (std::size_t m = 0; m + 1 < v[j].size(); ++m) {
      const Vertex &c = v[j][m], &d = v[j][m + 1];
      if ((near(a, c) && near(b, d)) || (near(a, d) && near(b, c))) {
        ++n;
        break;
      }
    }
  }
  return n;
}

// The horizontal offset (px) of every marker, per series and point. On a categorical axis each
// series with markers or error bars has its own offset within the categories; on a numeric axis
// markers of different series that would overlap (same x within 1 px, y within two radii) are
// spread apart around their point.
std::vector<std::vector<double>> marker_offsets(const Frame& f) {
  const LinePlot& p = f.plot;
  std::vector<std::vector<double>> offsets(p.series.size());
  for (std::size_t k = 0; k < p.series.size(); ++k) offsets[k].assign(size_of(p.series[k]), 0.0);
  const auto marked = [&](const Series& s) { return s.markers || !s.error.empty(); };
  if (categorical(p)) {
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < p.series.size(); ++k)
      if (marked(p.series[k]) && size_of(p.series[k]) > 0) order.push_back(k);
    const double n = static_cast<double>(order.size());
    const double slot = kPlotWidth / static_cast<double>(p.x_categories.size());
    const double step = std::min(2.5 * kMarkerSize, 0.8 * slot / std::max(n, 1.0));
    for (std::size_t j = 0; j < order.size(); ++j) {
      std::fill(offsets[order[j]].begin(), offsets[order[j]].end(),
                (static_cast<double>(j) - (n - 1) / 2) * step);
    }
    return offsets;
  }
  struct Mark {
    double x, y;
    std::size_t series, point;
  };
  std::vector<Mark> marks;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const Series& s = p.series[k];
    if (!marked(s)) continue;
    for (std::size_t i = 0; i < size_of(s); ++i) {
      if (usable(p, s.x[i], s.y[i])) marks.push_back({f.x(s.x[i]), f.y(s.y[i]), k, i});
    }
  }
  std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.series < b.series;
  });
  for (std::size_t first = 0; first < marks.size();) {
    std::size_t last = first + 1;
    while (last < marks.size() && std::abs(marks[last].x - marks[first].x) <= 1 &&
           marks[last].y - marks[last - 1].y <= 2 * kMarkerSize)
      ++last;
    std::vector<std::size_t> series;
    for (std::size_t m = first; m < last; ++m) series.push_back(marks[m].series);
    std::sort(series.begin(), series.end());
    series.erase(std::unique(series.begin(), series.end()), series.end());
    if (series.size() > 1) {
      const double n = static_cast<double>(series.size());
      for (std::size_t m = first; m < last; ++m) {
        const auto j = static_cast<double>(
            std::find(series.begin(), series.end(), marks[m].series) - series.begin());
        offsets[marks[m].series][marks[m].point] = (j - (n - 1) / 2) * kDodge;
      }
    }
    first = last;
  }
  return offsets;
}

std::string series_path(const Frame& f, std::size_t k, const std::vector<std::vector<Vertex>>& v,
                        std::size_t hidden, const std::vector<double>& offsets) {
  const Series& s = f.plot.series[k];
  const std::string fill = colour(s, k);
  std::string out;
  if (!v[k].empty() && s.line) {
    // Stretches along which a later line runs: wider underneath, so that this one shows.
    if (hidden == 0) {
      for (std::size_t i = 0; i + 1 < v[k].size(); ++i) {
        const std::size_t n = segment_hidden(f.plot, v, k, i);
        if (n == 0) continue;
        out += fmt::format(
            "<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" "
            "stroke-width=\"{}\" stroke-linecap=\"round\" class=\"under\"/>\n",
            v[k][i].first, v[k][i].second, v[k][i + 1].first, v[k][i + 1].second, fill,
            2 + 3 * static_cast<double>(n));
      }
    }
    out +=
        fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{}\"/>\n",
                    fill, 2 + 3 * static_cast<double>(hidden), dash(k), points_text(v[k]));
  }
  for (std::size_t i = 0; i < size_of(s); ++i) {
    const double e = error_of(s, i);
    if (e <= 0 || !usable(f.plot, s.x[i], s.y[i])) continue;
    const double x = f.x(s.x[i]) + offsets[i], y1 = f.y(s.y[i] - e), y2 = f.y(s.y[i] + e);
    out += fmt::format(
        "<path class=\"error-bar\" data-series=\"{}\" "
        "d=\"M{:.2f},{:.2f}V{:.2f}M{:.2f},{:.2f}H{:.2f}"
        "M{:.2f},{:.2f}H{:.2f}\" stroke=\"{}\" stroke-width=\"1.2\" fill=\"none\"/>\n",
        k, x, y1, y2, x - 3, y1, x + 3, x - 3, y2, x + 3, fill);
  }
  if (!s.markers) return out;
  for (std::size_t i = 0; i < size_of(s); ++i) {
    if (!usable(f.plot, s.x[i], s.y[i])) continue;
    out += marker(shape_of(s, k), fill, f.x(s.x[i]) + offsets[i], f.y(s.y[i]),
                  kMarkerSize + 2 * static_cast<double>(hidden), k, "marker");
  }
  return out;
}

// Where series leave the plot through a bound the caller set (an axis cut): the x of each point
// where a series goes from inside to beyond it, and of a first point beyond it. `above`: the top
// bound, else the bottom one.
std::vector<double> exits(const Frame& f, const Series& s, bool above) {
  std::vector<double> xs;
  const double bound = above ? f.ys.hi : f.ys.lo;
  const auto beyond = [&](double y) { return above ? y > bound : y < bound; };
  bool have_last = false;
  double last_x = 0, last_y = 0;
  for (std::size_t i = 0; i < size_of(s); ++i) {
    if (!usable(f.plot, s.x[i], s.y[i])) continue;
    const double x = f.x(s.x[i]), y = s.y[i];
    if (beyond(y) && (!have_last || (!beyond(last_y) && s.line))) {
      // A step function jumps at the new x; a line crosses the bound between the two points.
      const double t = !have_last || s.step ? 1.0 : (bound - last_y) / (y - last_y);
      xs.push_back(have_last ? last_x + t * (x - last_x) : x);
    } else if (beyond(y) && !s.line) {
      xs.push_back(x);
    }
    have_last = true;
    last_x = x;
    last_y = y;
  }
  return xs;
}

// A small triangle in the series' colour just outside the frame at each exit through a cut
// bound, pointing away from the plot. Returns whether it drew any.
bool exit_marks(const Frame& f, const std::vector<std::vector<double>>& offsets, std::string& out) {
  bool any = false;
  for (const bool above : {true, false}) {
    if (!(above ? f.plot.y_max : f.plot.y_min)) continue;
    for (std::size_t k = 0; k < f.plot.series.size(); ++k) {
      // On a categorical axis the mark sits at the series' own place in the category.
      const double shift = categorical(f.plot) && !offsets[k].empty() ? offsets[k].front() : 0.0;
      for (double x : exits(f, f.plot.series[k], above)) {
        x += shift;
        if (x < kLeft - 0.5 || x > kLeft + kPlotWidth + 0.5) continue;
        const double base = above ? f.top - 2 : f.bottom() + 2, tip = above ? base - 7 : base + 7;
        out += fmt::format(
            "<polygon points=\"{0:.2f},{1:.2f} {2:.2f},{1:.2f} {3:.2f},{4:.2f}\" fill=\"{5}\"/>\n",
            x - 4, base, x + 4, x, tip, colour(f.plot.series[k], k));
        any = true;
      }
    }
  }
  return any;
}

std::string legend(const Frame& f, bool exits_drawn) {
  std::string out;
  const double x = kLeft + kPlotWidth + 20;
  double y = f.top + 10;
  for (std::size_t k = 0; k < f.plot.series.size(); ++k) {
    const Series& s = f.plot.series[k];
    const TextBlock label = fit_label(s.label, kLegendWidth);
    if (s.line) {
      out += fmt::format(
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"{4} "
          "class=\"legend-mark\" data-series=\"{5}\"/>\n",
          x, y, x + 24, colour(s, k), dash(k), k);
    }
    if (s.markers)
      out += marker(shape_of(s, k), colour(s, k), x + 12, y, kMarkerSize + 0.5, k, "legend-mark");
    if (!s.markers && !s.line && !s.error.empty()) {
      out += fmt::format(
          "<path d=\"M{0},{1}V{2}M{3},{1}H{4}M{3},{2}H{4}\" stroke=\"{5}\" stroke-width=\"1.2\" "
          "class=\"legend-mark\" data-series=\"{6}\"/>\n",
          x + 12, y - 6, y + 6, x + 9, x + 15, colour(s, k), k);
    }
    out += text_lines(label, x + 32, y + 4, " class=\"legend\"");
    y += std::max(22.0, label.height() + 8);
  }
  if (exits_drawn) {
    y += 6;
    out += fmt::format(
        "<polygon points=\"{0},{1} {2},{1} {3},{4}\" fill=\"#333\"/>\n"
        "<text x=\"{5}\" y=\"{6}\" font-size=\"11\">where a curve</text>\n"
        "<text x=\"{5}\" y=\"{7}\" font-size=\"11\">leaves the plot</text>\n",
        x + 8, y + 4, x + 16, x + 12, y - 3, x + 32, y + 4, y + 18);
  }
  return out;
}

}  // namespace

void require_line_plot_size(std::size_t points, const std::string& option) {
  if (points <= kLinePlotMaxPoints) return;
  throw OptionError(fmt::format("a plot draws at most {} points, this one would have {}; omit --{}",
                                kLinePlotMaxPoints, points, option),
                    option);
}

std::string render_line_plot(const LinePlot& p) {
  std::size_t drawn = 0;
  for (const Series& s : p.series) drawn += s.x.size();
  require_line_plot_size(drawn, "plot");
  const auto [xs, ys] = plot_ranges(p);
  const TextBlock title = fit_title(p.title);
  const TextBlock caption{wrap(p.caption, kWidth - kLeft - 20, kCaptionSize, false), kCaptionSize};
  const TextBlock x_label = fit_label(p.x_label, kPlotWidth);
  const TextBlock y_label = fit_label(p.y_label, kPlotHeight);
  const std::vector<TextBlock> categories = category_labels(p);
  double tick_labels = 0;
  for (const TextBlock& c : categories)
    tick_labels = std::max(tick_labels, c.height() - c.line_height());
  const double title_baseline = 28 - kTitleSize + title.size;
  const Frame f{p, xs, ys,
                std::max(50.0, title_baseline + title.height() - title.line_height() + 22),
                tick_labels};
  const double below = f.x_label_baseline() + x_label.height() - x_label.line_height() + 18;
  const double height = below + (caption.lines.empty() ? 0 : caption.height() + 4);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0} {1:.0f}\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
      "font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      kWidth, std::ceil(height));
  out += text_lines(title, kLeft, title_baseline, " font-weight=\"bold\"");
  out += grid(f, categories) + axes(f, x_label, y_label);
  out += text_lines(caption, kLeft, below + kCaptionSize, " fill=\"#333\"");
  // Series, clipped to the plot area.
  out += fmt::format(
      "<clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n"
      "<g clip-path=\"url(#plot)\">\n",
      kLeft, f.top, kPlotWidth, kPlotHeight);
  std::vector<std::vector<Vertex>> v;
  std::vector<std::string> points;
  for (const Series& s : p.series) {
    v.push_back(vertices(f, s));
    points.push_back(points_text(v.back()));
  }
  const std::vector<std::vector<double>> offsets = marker_offsets(f);
  for (std::size_t k = 0; k < p.series.size(); ++k)
    out += series_path(f, k, v, hidden_under(p, points, k), offsets[k]);
  out += "</g>\n";
  const bool exits_drawn = exit_marks(f, offsets, out);
  out += legend(f, exits_drawn) + "</svg>\n";
  return out;
}

}  // namespace redist::svg
