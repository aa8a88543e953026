// Line plots as SVG, for the papers' figures (STAR Figures 22-25: cumulative distributions;
// SLICE Figure 3: processors used as a function of W/H). Shares the axis/tick helpers of gantt.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace redist::svg {

enum class MarkerShape {
  circle,   // filled, small
  diamond,  // open and larger: published values drawn next to measured ones
};

struct Series {
  std::string label;
  std::vector<double> x, y;  // same length; points drawn in the given order
  bool step = false;     // a right-continuous step function (distributions), continued at its last
                         // value to the right edge of the plot
  bool markers = false;  // a marker at every point
  bool line = true;      // false: markers only, no line between the points
  MarkerShape shape = MarkerShape::circle;
  std::string colour{};  // an SVG colour; empty: the palette's colour for the series' position
};

struct LinePlot {
  std::string title;    // wrapped (and shrunk) to the width of the figure, never clipped
  std::string caption;  // optional, wrapped under the x-axis label: sources, published values
  std::string x_label, y_label;
  std::vector<Series> series;
  bool log_x = false;  // logarithmic x axis (every x must then be > 0)
  // Axis ranges. A bound left unset is the data's, moved out by a margin so that no point lies on
  // the frame; a bound set here is kept as given (points beyond it are clipped, and a small
  // triangle in the series' colour outside the frame marks where a series leaves through a cut
  // y bound, explained in the legend).
  std::optional<double> x_min, x_max, y_min, y_max;
};

// The most points a plot draws, all series together: a readable figure, and a file of a few MB
// at most (about 40 bytes per point).
inline constexpr std::size_t kLinePlotMaxPoints = 50'000;

// OptionError at `option` (e.g. "plot") when a plot would draw more than kLinePlotMaxPoints points.
void require_line_plot_size(std::size_t points, const std::string& option);

// A complete SVG document (900 px wide, about 520 px high, taller for a long title or a caption)
// with axes, nice ticks, a legend and the title. Colours cycle through 8, all readable on white;
// series beyond the eighth are dashed. Series with no points are listed in the legend only.
// Non-finite points are skipped. OptionError at "plot" beyond kLinePlotMaxPoints.
std::string render_line_plot(const LinePlot& plot);

}  // namespace redist::svg
