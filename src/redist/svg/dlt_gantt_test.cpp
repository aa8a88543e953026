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

TEST(DltGantt, ConcurrentTransfersShareALaneAndStayLabelled) {
  const dlt::Instance in{{2, 1, 4, 1}, {1, 3, 2, 1}, {10, 0, 2, 6}};
  const dlt::Schedule s = dlt::plan(in);
  const std::string svg = dlt_gantt_svg(in, s, "redist dlt plan");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find("redist dlt plan — makespan 3.6"), std::string::npos);
  EXPECT_NE(svg.find("0&gt;1: 3.6, 0&gt;2: 2.8"), std::string::npos) << svg;
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"bar send"), 2u);
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
