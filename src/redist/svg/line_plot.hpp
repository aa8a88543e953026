// Line plots as SVG, for the papers' figures (STAR Figures 22-25: cumulative distributions;
// SLICE Figure 3: processors used as a function of W/H). Shares the axis/tick helpers of gantt.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace redist::svg {

// Filled markers, each with a thin white outline so that touching markers stay apart; `diamond`
// is open and larger: published values drawn next to measured ones.
enum class MarkerShape { circle, square, triangle, triangle_down, rhombus, diamond };

struct Series {
  std::string label;
  std::vector<double> x, y;  // same length; points drawn in the given order
  bool step = false;     // a right-continuous step function (distributions), continued at its last
                         // value to the right edge of the plot
  bool markers = false;  // a marker at every point
  bool line = true;      // false: markers only, no line between the points
  // Unset: by the series' position (circle, square, triangle, triangle_down, rhombus, again), so
  // that series drawn on the same points differ by shape as well as by colour.
  std::optional<MarkerShape> shape{};
  std::string colour{};  // an SVG colour; empty: the palette's colour for the series' position
  // Optional error bars: the half-width at each point (same length as y; empty: none). They
  // count in the automatic y range.
  std::vector<double> error{};
};

struct LinePlot {
  std::string title;    // wrapped (and shrunk) to the width of the figure, never clipped
  std::string caption;  // optional, wrapped under the x-axis label: sources, published values
  std::string x_label, y_label;
  std::vector<Series> series;
  bool log_x = false;  // logarithmic x axis (every x must then be > 0)
  // A categorical x axis when not empty: x = 0, 1, ... is the category of that index, labelled by
  // its name under the axis (wrapped onto more lines when narrow; "\n" in a name breaks it). The
  // series' markers are then set side by side within each category (a fixed offset per series),
  // so that equal values of different series never hide each other. log_x, x_min and x_max are
  // ignored.
  std::vector<std::string> x_categories;
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

// The smallest font size any text of a plot is drawn at (px): long texts wrap instead.
inline constexpr double kLinePlotMinFontSize = 11;

// A complete SVG document (900 px wide, about 520 px high, taller for a long title, category
// names on several lines or a caption) with axes, nice ticks, a legend and the title. The title
// is shrunk (16 px down to 12) to fit on one line, else wrapped. An automatic axis bound is
// moved out to a tick, so that the ticks span the data. Colours cycle through 8, all readable on
// white; series beyond the eighth are dashed. Every legend entry shows the series' line and
// marker. Markers of different series on the same spot (numeric axes) are moved apart
// horizontally by a few pixels; a series whose line runs under a later one's is drawn wider
// there. Series with no points are listed in the legend only. Non-finite points are skipped.
// Markers carry class="marker" and data-series, data-shape, data-x, data-y (their centre, px),
// legend marks class="legend-mark", for programs checking a figure. OptionError at "plot" beyond
// kLinePlotMaxPoints.
std::string render_line_plot(const LinePlot& plot);

}  // namespace redist::svg
