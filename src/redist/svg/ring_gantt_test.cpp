#include "redist/svg/ring_gantt.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::svg {
namespace {

// A chart of 10^6 processors used to take 5.9 GB and a 1.48 GB file; it is refused up front.
TEST(ResourceLimits, GanttRefusesChartsBeyondItsLimits) {
  EXPECT_NO_THROW(require_gantt_size(kGanttMaxProcessors, kGanttMaxRuns, "gantt"));
  try {
    require_gantt_size(1'000'000, 0, "gantt");
    ADD_FAILURE() << "accepted 10^6 processors";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "gantt");
    EXPECT_NE(std::string(e.what()).find("omit --gantt"), std::string::npos) << e.what();
  }
  EXPECT_THROW(require_gantt_size(10, kGanttMaxRuns + 1, "gantt"), InputError);

  ring::Instance in{false, {2, 0}, {0, 2}, {1, 1}, {}};
  ring::Schedule s;
  for (std::size_t k = 0; k <= kGanttMaxRuns; ++k) {
    s.transfers.push_back({0, ring::Direction::next, static_cast<double>(k), 0, 0.0});
  }
  EXPECT_THROW(ring_gantt_svg(in, s, ""), InputError);
  s.transfers.resize(1);
  s.transfers[0].count = 2;
  EXPECT_NE(ring_gantt_svg(in, s, "").find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace redist::svg
