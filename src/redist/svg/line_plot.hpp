// Line plots as SVG, for the papers' figures (STAR Figures 22-25: cumulative distributions;
// SLICE Figure 3: processors used as a function of W/H). Shares the axis/tick helpers of gantt.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace redist::svg {

struct Series {
  std::string label;
  std::vector<double> x, y;  // same length; points drawn in the given order
  bool step = false;     // a right-continuous step function (distributions), continued at its last
                         // value to the right edge of the plot
  bool markers = false;  // a small circle at every point
  bool line = true;      // false: markers only, no line between the points
};

struct LinePlot {
  std::string title;
  std::string x_label, y_label;
  std::vector<Series> series;
  bool log_x = false;  // logarithmic x axis (every x must then be > 0)
  // Axis ranges; by default the data's range (y from 0 when all y >= 0).
  std::optional<double> x_min, x_max, y_min, y_max;
};

// A complete SVG document (about 900 x 520 px) with axes, nice ticks, a legend and the title.
// Colours cycle through 8; series beyond the eighth are dashed.
// Series with no points are listed in the legend only. Non-finite points are skipped.
std::string render_line_plot(const LinePlot& plot);

}  // namespace redist::svg
