// The star Gantt chart: well-formed SVG, a legend entry for every bar kind, the title's claims.
#include "redist/svg/star_gantt.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "redist/star/planner.hpp"
#include "redist/svg/gantt.hpp"
#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

TEST(StarGantt, LegendAndTitle) {
  star::Instance in;
  in.c = {1, 1, 2};
  in.w = {1, 2, 1};
  in.loads = {6, 0, 1};
  star::Schedule s = star::plan(in, {"bba"});
  ASSERT_FALSE(s.transfers.empty());
  s.lower_bound = s.makespan - 1;
  s.optimal = false;
  const std::string svg = star_gantt_svg(in, s, "redist star plan");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  for (const char* kind :
       {"first hop: Pi sends the task to the master", "second hop: the master forwards it to Pj",
        "compute: own tasks", "compute: received tasks"}) {
    EXPECT_NE(svg.find(kind), std::string::npos) << kind;
  }
  // Labels as the text summary names the move; one colour per hop.
  const star::Transfer& t = s.transfers.front();
  EXPECT_NE(svg.find(fmt::format("P{} → P{}", t.from, t.to)), std::string::npos);
  EXPECT_EQ(svg.find("&gt;"), std::string::npos);
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"bar to-master\""), 2 * s.transfers.size());
  EXPECT_EQ(testkit::count_of(svg, "<rect class=\"bar from-master\""), 2 * s.transfers.size());
  EXPECT_NE(svg.find(fmt::format("redist star plan — bba: makespan {}, lower bound {}, optimal: "
                                 "not proven",
                                 format_number(s.makespan), format_number(s.lower_bound.value()))),
            std::string::npos);
  s.optimal = true;
  EXPECT_NE(star_gantt_svg(in, s, "").find("optimal: yes"), std::string::npos);
}

}  // namespace
}  // namespace redist::svg
