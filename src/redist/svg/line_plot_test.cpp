#include "redist/svg/line_plot.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

#include <cmath>
#include <fstream>
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
  EXPECT_EQ(count(svg, "<polyline"), 2u);  // the empty series is in the legend only
  EXPECT_EQ(count(svg, "<circle"), 2u);    // markers of the second series
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
  EXPECT_EQ(count(svg, "<circle"), 4u);              // x = 0 and NaN skipped
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
