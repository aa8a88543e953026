#include "redist/svg/line_plot.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace redist::svg {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

TEST(LinePlot, DrawsEverySeriesWithALegendEntry) {
  LinePlot p;
  p.title = "Cumulative distance <to best> & more";
  p.x_label = "distance";
  p.y_label = "fraction of platforms";
  p.series.push_back({"BBA", {0, 0.1, 0.2}, {0.2, 0.7, 1.0}, true, false});
  p.series.push_back({"MBBSA", {0, 0.05}, {0.5, 1.0}, false, true});
  p.series.push_back({"empty", {}, {}, false, false});
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count(svg, "<polyline"), 2u);         // the empty series is in the legend only
  EXPECT_EQ(count(svg, "class=\"marker\""), 2u);  // markers of the second series
  EXPECT_NE(svg.find("&lt;to best&gt; &amp; more"), std::string::npos);
  EXPECT_NE(svg.find(">MBBSA<"), std::string::npos);
  EXPECT_NE(svg.find(">empty<"), std::string::npos);
  // A step function doubles its inner points and runs on to the right edge: 3 points -> 6
  // vertices.
  const std::size_t start = svg.find("points=\"") + 8;
  const std::string first_points = svg.substr(start, svg.find('"', start) - start);
  EXPECT_EQ(count(first_points, ","), 6u);
}

// A distribution whose every value is 0 (all platforms at distance 0) is still a visible line.
TEST(LinePlot, SinglePointStepSeriesIsAVisibleLine) {
  LinePlot p;
  p.series.push_back({"BBA", {0}, {100}, true, false});
  const std::string svg = render_line_plot(p);
  const std::size_t start = svg.find("points=\"") + 8;
  const std::string points = svg.substr(start, svg.find('"', start) - start);
  EXPECT_EQ(count(points, ","), 2u);
}

TEST(LinePlot, LogAxisSkipsNonPositiveAndNonFinitePoints) {
  LinePlot p;
  p.log_x = true;
  p.series.push_back({"s", {0.0, 1, 10, 100, 1000, NAN}, {1, 2, 3, 4, 5, 6}, false, true});
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "class=\"marker\""), 4u);     // x = 0 and NaN skipped
  EXPECT_NE(svg.find(">1000<"), std::string::npos);  // decade ticks
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

// The y coordinates of a polyline's vertices.
std::vector<double> vertex_ys(const std::string& svg) {
  const std::size_t start = svg.find("points=\"") + 8;
  std::vector<double> ys;
  std::string points = svg.substr(start, svg.find('"', start) - start);
  for (std::size_t comma = points.find(','); comma != std::string::npos;
       comma = points.find(',', comma + 1))
    ys.push_back(std::stod(points.substr(comma + 1)));
  return ys;
}

double attribute(const std::string& svg, const std::string& element, const std::string& name) {
  const std::size_t at = svg.find(name + "=\"", svg.find(element));
  return std::stod(svg.substr(at + name.size() + 2));
}

// Curves at 100% (every platform within 0% of the best) used to be drawn on the top frame.
TEST(LinePlot, AutomaticRangeKeepsTheCurvesOffTheFrame) {
  LinePlot p;
  p.series.push_back({"BBA", {0}, {100}, true, false});
  p.series.push_back({"R-BSA", {0, 1, 2}, {97, 99, 100}, true, false});
  const std::string svg = render_line_plot(p);
  const double top = attribute(svg, "<rect x=\"80\"", "y");
  const double bottom = top + attribute(svg, "<rect x=\"80\"", "height");
  for (double y : vertex_ys(svg)) {
    EXPECT_GT(y, top + 5);
    EXPECT_LT(y, bottom - 5);
  }
}

// Identical distributions (BBA and MBBSA on homogeneous platforms) used to hide each other: the
// ones drawn first are wider, so every colour shows.
TEST(LinePlot, CoincidingSeriesStayVisible) {
  LinePlot p;
  for (const char* name : {"BBA", "MBBSA", "R-BSA"}) p.series.push_back({name, {0}, {100}, true});
  p.series.push_back({"other", {0, 1}, {50, 100}, true});
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "stroke-width=\"8\""), 1u);  // BBA, under two others
  EXPECT_EQ(count(svg, "stroke-width=\"5\""), 1u);  // MBBSA, under one
  EXPECT_EQ(count(svg, "stroke-width=\"2\""), 2u);  // R-BSA and the other one
}

TEST(LinePlot, FixedBoundsAreKept) {
  LinePlot p;
  p.series.push_back({"s", {1, 2}, {1, 3}, false, false});
  p.y_min = 0;
  p.y_max = 2;  // the second point leaves through the top
  const std::string svg = render_line_plot(p);
  EXPECT_NE(svg.find(">2</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">2.5</text>"), std::string::npos);
}

// A long title is wrapped onto more lines (and the figure grows), never cut at the right edge.
TEST(LinePlot, LongTitlesAreWrapped) {
  LinePlot p;
  p.title =
      "STAR Figure 23(b): distance to the best, homogeneous links, heterogeneous computation, "
      "faster communicating (c <= w)";
  const std::string one = render_line_plot(p);
  EXPECT_EQ(count(one, "font-weight=\"bold\""), 2u);
  p.title = std::string(2000, 'x');  // no space at all: cut between characters
  const std::string many = render_line_plot(p);
  EXPECT_GT(count(many, "font-weight=\"bold\""), 10u);
  EXPECT_GT(attribute(many, "<svg", "height"), attribute(one, "<svg", "height"));
  const std::size_t first = many.find("font-weight=\"bold\">") + 19;
  const std::size_t length = many.find('<', first) - first;
  EXPECT_LE(length * 12 * 0.68, 900 - 80 - 20);
}

TEST(LinePlot, PublishedValuesAreOpenDiamondsWithACaption) {
  LinePlot p;
  p.caption = "paper: about 93% within 3%";
  p.series.push_back({"paper", {3}, {93}, false, true, false, MarkerShape::diamond, "#000000"});
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "<polygon"), 2u);  // the point and its legend entry
  EXPECT_NE(svg.find("stroke=\"#000000\""), std::string::npos);
  EXPECT_NE(svg.find(">paper: about 93% within 3%<"), std::string::npos);
}

TEST(LinePlot, CurvesLeavingThroughAnAxisCutAreMarkedWhereTheyLeave) {
  LinePlot p;
  p.y_max = 2;
  // Crosses y = 2 between x = 1 and x = 3 (at x = 2), comes back, leaves again at the last point.
  p.series.push_back({"line", {0, 1, 3, 4, 5}, {1, 1, 3, 1, 5}, false, false});
  p.series.push_back({"inside", {0, 5}, {1, 1}, false, false});
  const std::string svg = render_line_plot(p);
  // Two exit triangles and the legend's, which explains them.
  EXPECT_EQ(count(svg, "<polygon"), 3u);
  EXPECT_NE(svg.find(">leaves the plot<"), std::string::npos);
  // No cut, no mark.
  p.y_max.reset();
  EXPECT_EQ(count(render_line_plot(p), "<polygon"), 0u);
}

TEST(LinePlot, EveryPaletteColourIsReadableOnWhite) {
  LinePlot p;
  for (int k = 0; k < 8; ++k) p.series.push_back({"s", {0, 1}, {0, 1}, false, false});
  const std::string svg = render_line_plot(p);
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos;
       at = svg.find("<polyline", at + 1)) {
    const std::size_t c = svg.find("stroke=\"#", at) + 9;
    const int rgb = std::stoi(svg.substr(c, 6), nullptr, 16);
    // Relative luminance (sRGB, linearised): at most 0.45 keeps a contrast of at least 2:1.
    double lum = 0;
    const double weight[] = {0.2126, 0.7152, 0.0722};
    for (int ch = 0; ch < 3; ++ch) {
      const double v = ((rgb >> (16 - 8 * ch)) & 0xFF) / 255.0;
      lum += weight[ch] * (v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4));
    }
    EXPECT_LT(lum, 0.45) << svg.substr(c, 6);
  }
}

// --- Checks a program can make on any figure --------------------------------------------------

// Every value of attribute `name` in the document, in order.
std::vector<std::string> attributes(const std::string& svg, const std::string& name) {
  std::vector<std::string> out;
  const std::string key = " " + name + "=\"";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
    const std::size_t start = at + key.size();
    out.push_back(svg.substr(start, svg.find('"', start) - start));
  }
  return out;
}

struct Mark {
  std::size_t series;
  std::string shape;
  double x, y;
};

// The markers drawn in the plot (not the legend's), in drawing order.
std::vector<Mark> markers(const std::string& svg) {
  std::vector<Mark> out;
  const std::string key = "class=\"marker\"";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
    const std::string element = svg.substr(at, svg.find('>', at) - at);
    out.push_back({std::stoul(attributes(element, "data-series").at(0)),
                   attributes(element, "data-shape").at(0),
                   std::stod(attributes(element, "data-x").at(0)),
                   std::stod(attributes(element, "data-y").at(0))});
  }
  return out;
}

// The texts of the elements with class `what` (tick labels, category names).
std::vector<std::string> texts(const std::string& svg, const std::string& what) {
  std::vector<std::string> out;
  const std::string key = "class=\"" + what + "\">";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
    const std::size_t start = at + key.size();
    out.push_back(svg.substr(start, svg.find('<', start) - start));
  }
  return out;
}

void expect_no_small_text(const std::string& svg) {
  for (const std::string& size : attributes(svg, "font-size"))
    EXPECT_GE(std::stod(size), kLinePlotMinFontSize) << size;
}

// Every series has a legend mark, and every series with markers has a marker that no later
// marker covers: two markers of different series on the same spot must differ in shape, else
// stand at least 5 px apart.
void expect_every_series_visible(const LinePlot& p, const std::string& svg) {
  std::vector<bool> legend(p.series.size(), false);
  const std::string key = "class=\"legend-mark\" data-series=\"";
  for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1))
    legend.at(std::stoul(svg.substr(at + key.size()))) = true;
  for (std::size_t k = 0; k < p.series.size(); ++k) EXPECT_TRUE(legend[k]) << p.series[k].label;
  const std::vector<Mark> all = markers(svg);
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    if (!p.series[k].markers || p.series[k].x.empty()) continue;
    bool visible = false;
    for (std::size_t a = 0; a < all.size() && !visible; ++a) {
      if (all[a].series != k) continue;
      bool covered = false;
      for (std::size_t b = a + 1; b < all.size(); ++b) {
        covered |= all[b].series != k && all[b].shape == all[a].shape &&
                   std::abs(all[b].x - all[a].x) < 5 && std::abs(all[b].y - all[a].y) < 5;
      }
      visible = !covered;
    }
    EXPECT_TRUE(visible) << p.series[k].label;
  }
}

// Both axes' ticks reach past the data: a tick at or below the smallest value and one at or
// above the largest.
void expect_ticks_span(const std::string& svg, const std::string& axis, double lo, double hi) {
  std::vector<double> ticks;
  for (const std::string& t : texts(svg, axis)) ticks.push_back(std::stod(t));
  ASSERT_FALSE(ticks.empty()) << axis;
  EXPECT_LE(*std::min_element(ticks.begin(), ticks.end()), lo + 1e-9) << axis;
  EXPECT_GE(*std::max_element(ticks.begin(), ticks.end()), hi - 1e-9) << axis;
}

// The SMPI figure's shape: six named patterns, six series, several of them equal at 1.
LinePlot categorical_plot() {
  LinePlot p;
  p.title = "MPI_Alltoallv's time over redist's, under SMPI (above 1: redist faster)";
  p.x_label = "pattern";
  p.y_label = "MPI_Alltoallv time / redist time";
  p.x_categories = {"bc-8-8-r1-s3", "bc-8-6-r4-s5", "bc-4-8-r2-s7",
                    "random",       "skewed",       "rcb-migration"};
  for (const char* platform : {"heterogeneous", "clusters", "homogeneous"}) {
    for (const char* setting : {"", ", no acknowledgements"}) {
      Series s;
      s.label = std::string(platform) + setting;
      s.markers = true;
      s.line = false;
      for (int i = 0; i < 6; ++i) {
        s.x.push_back(i);
        s.y.push_back(*setting ? 1.0 : 1.0 + 0.1 * i);
      }
      p.series.push_back(s);
    }
  }
  return p;
}

TEST(LinePlot, NoTextIsSmallerThanTheMinimum) {
  LinePlot p = categorical_plot();
  p.series[0].label = "4C (1.35, 3 steps, cooldown 100) and a much longer label still";
  p.y_label = "a very long y label that cannot fit the height of the plot at twelve pixels at all";
  p.x_categories[3] = "a category name far too long for its slot";
  p.caption = "a caption";
  p.y_max = 1.2;  // exit marks and their legend entry
  expect_no_small_text(render_line_plot(p));
  // The long legend label wraps rather than shrinks.
  const std::string svg = render_line_plot(p);
  EXPECT_NE(svg.find(">4C (1.35, 3 steps,"), std::string::npos);
}

TEST(LinePlot, CategoricalAxesAreLabelledByName) {
  const LinePlot p = categorical_plot();
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(texts(svg, "category"), p.x_categories);
  EXPECT_TRUE(texts(svg, "x-tick").empty());  // no numbers on a categorical axis
  expect_no_small_text(svg);
  expect_every_series_visible(p, svg);
  // Each series keeps its own place in every category, in the order of the series (600 px of
  // plot from x = 80, 100 px per category).
  const std::vector<Mark> all = markers(svg);
  const auto category = [](const Mark& m) { return static_cast<int>((m.x - 80) / 100); };
  for (const Mark& m : all) {
    for (const Mark& other : all) {
      if (other.series > m.series && category(other) == category(m)) {
        EXPECT_GT(other.x, m.x + 4);
      }
    }
  }
  // Names too long for their slot wrap under the axis; the figure grows to hold them.
  LinePlot narrow = p;
  narrow.x_categories[0] = "a long pattern name on several lines";
  const std::string wrapped = render_line_plot(narrow);
  EXPECT_GT(texts(wrapped, "category").size(), p.x_categories.size());
  EXPECT_GT(attribute(wrapped, "<svg", "height"), attribute(svg, "<svg", "height"));
}

TEST(LinePlot, CoincidentMarkersOfDifferentSeriesStayVisible) {
  // Six series through the same points (numeric axis, markers only), then lines with markers
  // where two series run together (replay and cost-benefit in RRV04 Figure 13).
  LinePlot p;
  for (int k = 0; k < 6; ++k)
    p.series.push_back({"s" + std::to_string(k), {1, 2, 3}, {1, 1, 2}, false, true, false});
  expect_every_series_visible(p, render_line_plot(p));
  for (const Mark& a : markers(render_line_plot(p))) {
    for (const Mark& b : markers(render_line_plot(p))) {
      if (a.series != b.series && std::abs(a.y - b.y) < 1) {
        EXPECT_TRUE(a.shape != b.shape || std::abs(a.x - b.x) >= 5);
      }
    }
  }
  LinePlot lines;
  lines.series.push_back({"cost-benefit", {1, 2, 3}, {0.4, 0.43, 0.5}, false, true});
  lines.series.push_back({"replay", {1, 2, 3}, {0.401, 0.431, 0.5}, false, true});
  lines.series.push_back({"oracle", {1, 2, 3}, {0.3, 0.33, 0.4}, false, true});
  const std::string svg = render_line_plot(lines);
  expect_every_series_visible(lines, svg);
  // cost-benefit's line is drawn wider where replay's runs over it.
  EXPECT_EQ(count(svg, "class=\"under\""), 2u);
}

TEST(LinePlot, TicksSpanTheData) {
  // redist's time over its model: 0.957 to 1.092 used to get the ticks 1 and 1.05 only.
  LinePlot p;
  p.series.push_back({"a",
                      {1, 2, 3, 4, 5, 6},
                      {0.9916, 0.9954, 0.9797, 0.9587, 0.9574, 1.0924},
                      false,
                      true,
                      false});
  std::string svg = render_line_plot(p);
  expect_ticks_span(svg, "y-tick", 0.9574, 1.0924);
  expect_ticks_span(svg, "x-tick", 1, 6);
  EXPECT_GE(texts(svg, "y-tick").size(), 3u);
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{
           {0.395, 1.0}, {-3.2, 17.9}, {0.001, 0.0031}, {1, 10}, {0, 50}, {12345, 12399}}) {
    LinePlot q;
    q.series.push_back({"q", {lo, (lo + hi) / 2, hi}, {hi, lo, (lo + hi) / 3}, false, true});
    svg = render_line_plot(q);
    expect_ticks_span(svg, "y-tick", std::min(lo, (lo + hi) / 3), hi);
    expect_ticks_span(svg, "x-tick", lo, hi);
  }
}

TEST(LinePlot, ErrorBarsAreDrawnAndWidenTheRange) {
  LinePlot p;
  p.x_categories = {"a", "b"};
  p.series.push_back({"mean", {0, 1}, {1, 2}, false, true, false});
  p.series[0].error = {0.5, 0.25};
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 2u);
  expect_ticks_span(svg, "y-tick", 0.5, 2.25);
}

TEST(LinePlot, TitlesFitOnOneLineWhenTheyCan) {
  LinePlot p;
  p.title = "Rebalancing policies on recorded particle runs: total time over the optimum's";
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "font-weight=\"bold\""), 1u);
  const std::size_t text = svg.rfind("<text", svg.find("font-weight=\"bold\""));
  EXPECT_GE(attribute(svg.substr(text), "<text", "font-size"), 12);
}

// The same checks on the figures of docs/figures that this renderer drew (those with markers
// tagged class="marker"): no text under 11 px, every legend entry's series with a visible marker.
TEST(LinePlot, PublishedFiguresPassTheChecks) {
  const char* data = std::getenv("REDIST_DATA_DIR");
  if (data == nullptr) GTEST_SKIP() << "REDIST_DATA_DIR unset";
  const std::filesystem::path figures = std::filesystem::path(data) / ".." / "docs" / "figures";
  if (!std::filesystem::exists(figures)) GTEST_SKIP() << figures;
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(figures)) {
    if (entry.path().extension() != ".svg") continue;
    std::ifstream in(entry.path());
    const std::string svg{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (svg.find("class=\"marker\"") == std::string::npos) continue;
    SCOPED_TRACE(entry.path().filename().string());
    ++checked;
    expect_no_small_text(svg);
    const std::vector<Mark> all = markers(svg);
    std::vector<std::size_t> series;
    for (const Mark& m : all) series.push_back(m.series);
    std::sort(series.begin(), series.end());
    series.erase(std::unique(series.begin(), series.end()), series.end());
    LinePlot shape;  // only the series' count and their markers matter to the check
    shape.series.resize(series.empty() ? 0 : series.back() + 1);
    for (const std::size_t k : series)
      shape.series[k] = {"series " + std::to_string(k), {0}, {0}, false, true};
    for (std::size_t k = 0; k < shape.series.size(); ++k) {
      if (shape.series[k].label.empty())
        shape.series[k] = {"series " + std::to_string(k), {}, {}, false, false};
    }
    expect_every_series_visible(shape, svg);
    EXPECT_GE(texts(svg, "y-tick").size(), 3u);
  }
  EXPECT_GE(checked, 1u);
}

TEST(LinePlot, EmptyPlotIsStillADocument) {
  const std::string svg = render_line_plot(LinePlot{});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  if (const char* path = std::getenv("REDIST_LINE_PLOT_EXAMPLE")) {
    LinePlot p;
    p.title = "Example";
    p.x_label = "W/H";
    p.y_label = "processors";
    p.log_x = true;
    p.series.push_back({"Lyon", {1, 10, 100, 1000, 10000}, {1, 2, 5, 9, 14}, true, true});
    p.series.push_back({"Strasbourg", {1, 10, 100, 1000, 10000}, {1, 3, 7, 12, 13}, true, true});
    std::ofstream(path) << render_line_plot(p);
  }
}

TEST(LinePlot, RefusesMoreThanItsLimitOfPoints) {
  LinePlot plot;
  Series series{"many", {}, {}};
  for (std::size_t k = 0; k <= kLinePlotMaxPoints; ++k) {
    series.x.push_back(static_cast<double>(k));
    series.y.push_back(1.0);
  }
  plot.series = {series};
  EXPECT_THROW(render_line_plot(plot), OptionError);
  plot.series[0].x.pop_back();
  plot.series[0].y.pop_back();
  EXPECT_NO_THROW(render_line_plot(plot));
}

}  // namespace
}  // namespace redist::svg
