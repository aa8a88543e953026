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
constexpr double kTitleSize = 16, kSmallestTitleSize = 12, kLabelSize = 12, kSmallestLabelSize = 8;
constexpr double kCaptionSize = 11;
constexpr double kMargin = 0.04;  // share of an automatic axis range left free on each side
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

// Greedy word wrap to `width`; a word longer than a line is cut between code points.
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

// The font size at which one line of text fits `width`, between `size` and `smallest`.
double fitted_size(std::string_view text, double width, double size, double smallest) {
  const double needed = text_width(text, size);
  return needed <= width ? size : std::max(smallest, size * width / needed);
}

struct TextBlock {
  std::vector<std::string> lines;
  double size = 0;
  double line_height() const { return 1.25 * size; }
  double height() const { return line_height() * static_cast<double>(lines.size()); }
};

// The title on at most two lines at the largest size from 16 px down to 12 px that allows it,
// else on as many lines as it takes at 12 px.
TextBlock fit_title(std::string_view title) {
  const double width = kWidth - kLeft - 20;
  for (double size = kTitleSize; size >= kSmallestTitleSize; size -= 2) {
    TextBlock block{wrap(title, width, size, true), size};
    if (block.lines.size() <= 2 || size <= kSmallestTitleSize) return block;
  }
  return {};
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

bool usable(const LinePlot& p, double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && (!p.log_x || x > 0);
}

// The axis range: each bound the caller fixed as given, each other bound the data's moved out by
// kMargin of the span, so that no point sits on the frame. A single value gets +-5% (at least
// +-0.5); no data gets [0, 1].
Range axis_range(Range data, std::optional<double> lo, std::optional<double> hi) {
  if (data.empty()) data = Range{0.0, 1.0};
  if (lo && hi) return *hi > *lo ? Range{*lo, *hi} : Range{*lo, *lo + 1};
  Range r{lo.value_or(data.lo), hi.value_or(data.hi)};
  if (r.hi <= r.lo) {
    const double pad = std::max(0.05 * std::abs(lo ? r.lo : r.hi), 0.5);
    return lo   ? Range{r.lo, r.lo + 2 * pad}
           : hi ? Range{r.hi - 2 * pad, r.hi}
                : Range{r.lo - pad, r.hi + pad};
  }
  const double pad = kMargin * (r.hi - r.lo);
  if (!lo) r.lo -= pad;
  if (!hi) r.hi += pad;
  return r;
}

// Axis values: log10(x) on a logarithmic axis.
double axis_x(const LinePlot& p, double x) { return p.log_x ? std::log10(x) : x; }

std::pair<Range, Range> plot_ranges(const LinePlot& p) {
  Range xs, ys;
  for (const Series& s : p.series) {
    for (std::size_t k = 0; k < std::min(s.x.size(), s.y.size()); ++k) {
      if (!usable(p, s.x[k], s.y[k])) continue;
      xs.add(axis_x(p, s.x[k]));
      ys.add(s.y[k]);
    }
  }
  auto log = [&](std::optional<double> v) -> std::optional<double> {
    if (!v || !p.log_x) return v;
    return std::log10(*v);
  };
  return {axis_range(xs, log(p.x_min), log(p.x_max)), axis_range(ys, p.y_min, p.y_max)};
}

// --- Drawing -------------------------------------------------------------------------------

// Pixel positions of the plot area and of its axes.
struct Frame {
  const LinePlot& plot;
  Range xs, ys;
  double top = 50;
  double x(double v) const {
    return kLeft + (axis_x(plot, v) - xs.lo) / (xs.hi - xs.lo) * kPlotWidth;
  }
  double y(double v) const {
    return top + kPlotHeight - (v - ys.lo) / (ys.hi - ys.lo) * kPlotHeight;
  }
  double bottom() const { return top + kPlotHeight; }
};

std::string text_lines(const TextBlock& block, double x, double first_baseline,
                       const char* attributes) {
  std::string out;
  for (std::size_t i = 0; i < block.lines.size(); ++i) {
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"{}\"{}>{}</text>\n", x,
                       first_baseline + block.line_height() * static_cast<double>(i), block.size,
                       attributes, xml_escape(block.lines[i]));
  }
  return out;
}

std::string grid(const Frame& f) {
  std::vector<double> x_ticks;
  if (f.plot.log_x) {
    for (double e = std::ceil(f.xs.lo); e <= f.xs.hi + 1e-9; ++e)
      x_ticks.push_back(std::pow(10.0, e));
  } else {
    x_ticks = nice_ticks(f.xs.lo, f.xs.hi, 8);
  }
  std::string out;
  for (double t : x_ticks) {
    const double x = f.x(t);
    if (x < kLeft - 0.5 || x > kLeft + kPlotWidth + 0.5) continue;
    out += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>\n"
        "<text x=\"{0:.2f}\" y=\"{3}\" text-anchor=\"middle\" fill=\"#333\">{4}</text>\n",
        x, f.top, f.bottom(), f.bottom() + 18, xml_escape(format_number(t)));
  }
  for (double t : nice_ticks(f.ys.lo, f.ys.hi, 6)) {
    const double y = f.y(t);
    if (y < f.top - 0.5 || y > f.bottom() + 0.5) continue;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.2f}\" x2=\"{2}\" y2=\"{1:.2f}\" stroke=\"#e5e5e5\"/>\n"
        "<text x=\"{3}\" y=\"{4:.2f}\" text-anchor=\"end\" fill=\"#333\">{5}</text>\n",
        kLeft, y, kLeft + kPlotWidth, kLeft - 8, y + 4, xml_escape(format_number(t)));
  }
  return out;
}

std::string axes(const Frame& f) {
  const LinePlot& p = f.plot;
  return fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"#333\"/>\n"
      "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\" font-size=\"{6:.1f}\">{7}</text>\n"
      "<text transform=\"translate(20 {8}) rotate(-90)\" text-anchor=\"middle\" "
      "font-size=\"{9:.1f}\">{10}</text>\n",
      kLeft, f.top, kPlotWidth, kPlotHeight, kLeft + kPlotWidth / 2, f.bottom() + 42,
      fitted_size(p.x_label, kPlotWidth, kLabelSize, kSmallestLabelSize), xml_escape(p.x_label),
      f.top + kPlotHeight / 2, fitted_size(p.y_label, kPlotHeight, kLabelSize, kSmallestLabelSize),
      xml_escape(p.y_label));
}

std::string marker(const Series& s, const std::string& fill, double x, double y, double size) {
  if (s.shape == MarkerShape::diamond) {
    const double r = size + 3;
    return fmt::format(
        "<polygon points=\"{0:.2f},{1:.2f} {2:.2f},{3:.2f} {0:.2f},{4:.2f} {5:.2f},{3:.2f}\" "
        "fill=\"white\" stroke=\"{6}\" stroke-width=\"2\"/>\n",
        x, y - r, x + r, y, y + r, x - r, fill);
  }
  return fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" fill=\"{}\"/>\n", x, y, size,
                     fill);
}

// A series' vertices in pixels ("x,y x,y ..."), with the steps of a step function.
std::string vertices(const Frame& f, const Series& s) {
  std::string points;
  double last_y = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (!usable(f.plot, s.x[i], s.y[i])) continue;
    const double x = f.x(s.x[i]), y = f.y(s.y[i]);
    if (s.step && !std::isnan(last_y)) points += fmt::format("{:.2f},{:.2f} ", x, last_y);
    points += fmt::format("{:.2f},{:.2f} ", x, y);
    last_y = y;
  }
  if (s.step && !std::isnan(last_y)) {
    // A distribution keeps its last value: continue the step to the right edge.
    points += fmt::format("{:.2f},{:.2f} ", kLeft + kPlotWidth, last_y);
  }
  return points;
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

std::string series_path(const Frame& f, const Series& s, std::size_t k, const std::string& points,
                        std::size_t hidden) {
  const std::string fill = colour(s, k);
  std::string out;
  if (!points.empty() && s.line) {
    out +=
        fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{}\"/>\n",
                    fill, 2 + 3 * static_cast<double>(hidden), dash(k), points);
  }
  if (!s.markers) return out;
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (!usable(f.plot, s.x[i], s.y[i])) continue;
    out += marker(s, fill, f.x(s.x[i]), f.y(s.y[i]), 3 + 2 * static_cast<double>(hidden));
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
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
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
bool exit_marks(const Frame& f, std::string& out) {
  bool any = false;
  for (const bool above : {true, false}) {
    if (!(above ? f.plot.y_max : f.plot.y_min)) continue;
    for (std::size_t k = 0; k < f.plot.series.size(); ++k) {
      for (const double x : exits(f, f.plot.series[k], above)) {
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
  const double x = kLeft + kPlotWidth + 20, text_width_available = kRight - 20 - 32;
  for (std::size_t k = 0; k < f.plot.series.size(); ++k) {
    const Series& s = f.plot.series[k];
    const double y = f.top + 10 + 22 * static_cast<double>(k);
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"{7}/>\n"
        "<text x=\"{4}\" y=\"{5}\" font-size=\"{8:.1f}\">{6}</text>\n",
        x, y, x + 24, colour(s, k), x + 32, y + 4, xml_escape(s.label),
        s.line ? dash(k) : " stroke-opacity=\"0\"",
        fitted_size(s.label, text_width_available, kLabelSize, kSmallestLabelSize));
    if (!s.line && s.markers) out += marker(s, colour(s, k), x + 12, y, 4);
  }
  if (exits_drawn) {
    const double y = f.top + 10 + 22 * static_cast<double>(f.plot.series.size()) + 6;
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
  const double title_baseline = 28 - kTitleSize + title.size;
  const Frame f{p, xs, ys,
                std::max(50.0, title_baseline + title.height() - title.line_height() + 22)};
  const double height = f.bottom() + 60 + (caption.lines.empty() ? 0 : caption.height() + 4);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0} {1:.0f}\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
      "font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      kWidth, std::ceil(height));
  out += text_lines(title, kLeft, title_baseline, " font-weight=\"bold\"");
  out += grid(f) + axes(f);
  out += text_lines(caption, kLeft, f.bottom() + 60 + kCaptionSize, " fill=\"#333\"");
  // Series, clipped to the plot area.
  out += fmt::format(
      "<clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n"
      "<g clip-path=\"url(#plot)\">\n",
      kLeft, f.top, kPlotWidth, kPlotHeight);
  std::vector<std::string> points;
  for (const Series& s : p.series) points.push_back(vertices(f, s));
  for (std::size_t k = 0; k < p.series.size(); ++k)
    out += series_path(f, p.series[k], k, points[k], hidden_under(p, points, k));
  out += "</g>\n";
  const bool exits_drawn = exit_marks(f, out);
  out += legend(f, exits_drawn) + "</svg>\n";
  return out;
}

}  // namespace redist::svg
