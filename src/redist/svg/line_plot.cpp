#include "redist/svg/line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/svg/gantt.hpp"

namespace redist::svg {

namespace {

constexpr double kWidth = 900, kHeight = 520;
constexpr double kLeft = 80, kRight = 220, kTop = 50, kBottom = 60;  // margins; legend on the right
// Colour-blind-safe palette (Okabe-Ito), cycled.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// Series past the palette's length are dashed, so that no two look alike.
std::string dash(std::size_t k) {
  return k < std::size(kColours) ? "" : " stroke-dasharray=\"6 4\"";
}

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

}  // namespace

std::string render_line_plot(const LinePlot& p) {
  Range xs, ys;
  for (const Series& s : p.series) {
    for (std::size_t k = 0; k < std::min(s.x.size(), s.y.size()); ++k) {
      if (!usable(p, s.x[k], s.y[k])) continue;
      xs.add(p.log_x ? std::log10(s.x[k]) : s.x[k]);
      ys.add(s.y[k]);
    }
  }
  if (xs.empty()) xs = Range{p.log_x ? 0.0 : 0.0, 1.0};
  if (ys.empty()) ys = Range{0.0, 1.0};
  if (ys.lo >= 0) ys.lo = 0;
  if (p.x_min) xs.lo = p.log_x ? std::log10(*p.x_min) : *p.x_min;
  if (p.x_max) xs.hi = p.log_x ? std::log10(*p.x_max) : *p.x_max;
  if (p.y_min) ys.lo = *p.y_min;
  if (p.y_max) {
    ys.hi = *p.y_max;
  } else {
    ys.hi += 0.05 * (ys.hi - ys.lo);  // headroom so the highest point is not on the frame
  }
  if (xs.hi <= xs.lo) xs.hi = xs.lo + 1;
  if (ys.hi <= ys.lo) ys.hi = ys.lo + 1;

  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) {
    const double v = p.log_x ? std::log10(x) : x;
    return kLeft + (v - xs.lo) / (xs.hi - xs.lo) * plot_w;
  };
  auto py = [&](double y) { return kTop + plot_h - (y - ys.lo) / (ys.hi - ys.lo) * plot_h; };

  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"28\" font-size=\"16\" font-weight=\"bold\">{3}</text>\n",
      kWidth, kHeight, kLeft, xml_escape(p.title));
  // Grid, ticks and labels.
  std::vector<double> x_ticks;
  if (p.log_x) {
    for (double e = std::ceil(xs.lo); e <= xs.hi + 1e-9; ++e) x_ticks.push_back(std::pow(10.0, e));
  } else {
    x_ticks = nice_ticks(xs.lo, xs.hi, 8);
  }
  for (double t : x_ticks) {
    const double x = px(t);
    if (x < kLeft - 0.5 || x > kLeft + plot_w + 0.5) continue;
    out += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>\n"
        "<text x=\"{0:.2f}\" y=\"{3}\" text-anchor=\"middle\" fill=\"#333\">{4}</text>\n",
        x, kTop, kTop + plot_h, kTop + plot_h + 18, xml_escape(format_number(t)));
  }
  for (double t : nice_ticks(ys.lo, ys.hi, 6)) {
    const double y = py(t);
    if (y < kTop - 0.5 || y > kTop + plot_h + 0.5) continue;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.2f}\" x2=\"{2}\" y2=\"{1:.2f}\" stroke=\"#e5e5e5\"/>\n"
        "<text x=\"{3}\" y=\"{4:.2f}\" text-anchor=\"end\" fill=\"#333\">{5}</text>\n",
        kLeft, y, kLeft + plot_w, kLeft - 8, y + 4, xml_escape(format_number(t)));
  }
  out += fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"#333\"/>\n"
      "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">{6}</text>\n"
      "<text transform=\"translate(20 {7}) rotate(-90)\" text-anchor=\"middle\">{8}</text>\n",
      kLeft, kTop, plot_w, plot_h, kLeft + plot_w / 2, kHeight - 18, xml_escape(p.x_label),
      kTop + plot_h / 2, xml_escape(p.y_label));
  // Series, clipped to the plot area.
  out += fmt::format(
      "<clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n"
      "<g clip-path=\"url(#plot)\">\n",
      kLeft, kTop, plot_w, plot_h);
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const Series& s = p.series[k];
    const char* colour = kColours[k % std::size(kColours)];
    std::string points;
    double last_y = std::numeric_limits<double>::quiet_NaN();
    std::string markers;
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(p, s.x[i], s.y[i])) continue;
      const double x = px(s.x[i]), y = py(s.y[i]);
      if (s.step && !std::isnan(last_y)) points += fmt::format("{:.2f},{:.2f} ", x, last_y);
      points += fmt::format("{:.2f},{:.2f} ", x, y);
      last_y = y;
      if (s.markers) {
        markers += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3\" fill=\"{}\"/>\n", x, y,
                               colour);
      }
    }
    if (s.step && !std::isnan(last_y)) {
      // A distribution keeps its last value: continue the step to the right edge.
      points += fmt::format("{:.2f},{:.2f} ", kLeft + plot_w, last_y);
    }
    if (!points.empty() && s.line) {
      out += fmt::format(
          "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", colour,
          dash(k), points);
    }
    out += markers;
  }
  out += "</g>\n";
  // Legend.
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const double y = kTop + 10 + 22 * static_cast<double>(k);
    const double x = kLeft + plot_w + 20;
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"{7}/>\n"
        "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
        x, y, x + 24, kColours[k % std::size(kColours)], x + 32, y + 4,
        xml_escape(p.series[k].label), p.series[k].line ? dash(k) : " stroke-opacity=\"0\"");
    if (!p.series[k].line && p.series[k].markers)
      out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>\n", x + 12, y,
                         kColours[k % std::size(kColours)]);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace redist::svg
