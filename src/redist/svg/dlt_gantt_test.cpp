// The divisible-load Gantt chart: well-formed SVG on random optimal schedules, one bar per lane
// and end time, the makespan in the title, and the size limits.
#include "redist/svg/dlt_gantt.hpp"

#include <gtest/gtest.h>

#include <random>

#include "redist/common/error.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

// The height (px) of the first bar of class `cls` after `from` in `svg`.
double bar_height(const std::string& svg, const std::string& cls, std::size_t* from) {
  const std::size_t at = svg.find("<rect class=\"bar " + cls + "\"", *from);
  EXPECT_NE(at, std::string::npos);
  const std::size_t h = svg.find("height=\"", at) + 8;
  *from = at + 1;
  return std::stod(svg.substr(h, svg.find('"', h) - h));
}

TEST(DltGantt, TransfersSharingALinkAreStackedAtTheirRates) {
  const dlt::Instance in{{2, 1, 4, 1}, {1, 3, 2, 1}, {10, 0, 2, 6}};
  const dlt::Schedule s = dlt::plan(in);
  const std::string svg = dlt_gantt_svg(in, s, "redist dlt plan");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find("redist dlt plan — lp7: makespan 3.6, lower bound 3.6, optimal: yes"),
            std::string::npos);
  EXPECT_NE(svg.find(">→P1: 3.6 at rate 1<"), std::string::npos) << svg;
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"bar send"), 3u);
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"bar recv"), 3u);
  // P0 sends at rates 1 and 7/9 on a link of b = 2: bands in the ratio of the rates, together
  // under the lane's height; P3 sends at 2/3 on a link of b = 1.
  std::size_t at = 0;
  const double first = bar_height(svg, "send", &at), second = bar_height(svg, "send", &at);
  const double third = bar_height(svg, "send", &at);
  EXPECT_NEAR(first / second, 1.0 / (7.0 / 9.0), 1e-2);
  EXPECT_LT(first + second, 28.0);
  EXPECT_NEAR(third / first, (2.0 / 3.0) / 0.5, 2e-2);
}

TEST(DltGantt, AnInvalidScheduleIsDrawnWithItsConflict) {
  const dlt::Instance in{{2, 1, 4, 1}, {1, 3, 2, 1}, {10, 0, 2, 6}};
  dlt::Schedule s = dlt::plan(in);
  s.transfers[1].rate = 5;                  // P0's link carries more than b0
  s.transfers.push_back({7, 1, 1.0, 1.0});  // an unknown worker: not drawn
  const Conflict conflict{"transfer 1: too fast", {1}};
  const std::string svg = dlt_gantt_svg(in, s, "", &conflict);
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find("invalid: transfer 1: too fast"), std::string::npos);
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"conflict\""), 2u + 1u);  // 2 bars + legend
}

TEST(DltGantt, RandomOptimalSchedulesDrawWellFormed) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> value(0.1, 10.0);
  for (int k = 0; k < 200; ++k) {
    dlt::Instance in;
    for (int i = 0; i < 2 + k % 9; ++i) {
      in.b.push_back(value(rng));
      in.s.push_back(value(rng));
      in.alpha.push_back(k % 3 == 0 && i > 0 ? 0.0 : value(rng));
    }
    const dlt::Schedule s = dlt::plan(in);
    const std::string svg = dlt_gantt_svg(in, s, "");
    ASSERT_EQ(testkit::xml_problem(svg), "") << k;
    EXPECT_EQ(svg.find("nan"), std::string::npos);
  }
}

TEST(DltGantt, RefusesChartsBeyondItsLimits) {
  EXPECT_NO_THROW(require_dlt_gantt_size(kDltGanttMaxWorkers, kDltGanttMaxTransfers));
  EXPECT_THROW(require_dlt_gantt_size(kDltGanttMaxWorkers + 1, 0), OptionError);
  EXPECT_THROW(require_dlt_gantt_size(2, kDltGanttMaxTransfers + 1), OptionError);
}

}  // namespace
}  // namespace redist::svg
