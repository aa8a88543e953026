// The LAU step chart: well-formed SVG, one arrow per message in both send modes, the title's
// claims, and the size limits.
#include "redist/svg/lau_steps.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/lau/simulate.hpp"
#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

using testkit::count_of;

// Arrows of the chart, not counting the legend's (which start at x = 14).
std::size_t arrows(const std::string& svg, const std::string& direction) {
  const std::string arrow = "<line class=\"" + direction + "\" x1=";
  return count_of(svg, arrow) - count_of(svg, arrow + "\"27\"");  // the legend's
}

lau::Plan figure2_plan() {  // LAU Figure 2: the Linear schedule, T_s = 5, T_m = 3
  lau::Plan plan;
  plan.algorithm = "linear";
  plan.flows = {5, 3, 4, 3, 2, 0};
  plan.lower_bound = 2;
  return plan;
}

TEST(LauStepChart, SingleSendDrawsOneArrowPerLink) {
  const lau::Instance in = lau::balanced_instance({7, 0, 3, 1, 1, 0});
  lau::Plan plan = figure2_plan();
  plan.makespan = 5;
  const std::string svg = lau_steps_svg(in, plan, "redist lau plan");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(arrows(svg, "right"), 5u);  // five non-zero flows, rightwards
  EXPECT_EQ(arrows(svg, "left"), 0u);
  EXPECT_NE(svg.find("redist lau plan — linear, single-send: makespan 5 steps, lower bound 2, "
                     "optimal: no"),
            std::string::npos);
  EXPECT_NE(svg.find("<title>step 5: P4 → P5, 2 units</title>"), std::string::npos);
  EXPECT_NE(svg.find(">lower bound 2<"), std::string::npos);
  EXPECT_NE(svg.find(">time step<"), std::string::npos);
  EXPECT_NE(svg.find("red node"), std::string::npos);
  // The legend's arrows point as the chart's: down to the right, up to the left.
  EXPECT_NE(svg.find("<line class=\"right\" x1=\"27\" y1=\""), std::string::npos);
  const std::size_t legend_right = svg.find("<line class=\"right\" x1=\"27\"");
  const std::size_t legend_left = svg.find("<line class=\"left\" x1=\"27\"");
  ASSERT_NE(legend_left, std::string::npos);
  const auto y_of = [&](std::size_t at, const char* name) {
    const std::size_t v = svg.find(name, at) + std::string(name).size();
    return std::stod(svg.substr(v, svg.find('"', v) - v));
  };
  EXPECT_LT(y_of(legend_right, "y1=\""), y_of(legend_right, "y2=\""));  // downward
  EXPECT_GT(y_of(legend_left, "y1=\""), y_of(legend_left, "y2=\""));    // upward
}

TEST(LauStepChart, MultiSendDrawsEveryPartialMessage) {
  const lau::Instance in = lau::balanced_instance({7, 0, 3, 1, 1, 0});
  const lau::Plan plan = figure2_plan();
  const lau::Trace trace = lau::trace_multi(in, plan.flows);
  ASSERT_EQ(trace.time, 3);
  lau::Plan multi = plan;
  multi.mode = lau::Mode::multi;
  const std::string svg = lau_steps_svg(in, multi, "");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(arrows(svg, "right"), trace.messages.size());
  EXPECT_NE(svg.find("linear, multi-send: makespan 3 steps"), std::string::npos);
}

TEST(LauStepChart, LeftMessagesAndTheWrapLink) {
  // P1 sends one unit to P0 over each link: leftwards over link 0, rightwards over link 1 (the
  // link that closes the ring, drawn down to the repeated P0).
  const lau::Instance in{{0, 4}, {2, 2}};
  lau::Plan plan;
  plan.flows = {-1, 1};  // P1 -> P0 over both links
  plan.optimal = true;
  plan.lower_bound = 1;
  const std::string svg = lau_steps_svg(in, plan, "t");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(arrows(svg, "left"), 1u);
  EXPECT_EQ(arrows(svg, "right"), 1u);
  EXPECT_NE(svg.find("optimal: yes"), std::string::npos);
  EXPECT_NE(svg.find("(the ring closes)"), std::string::npos);
}

TEST(LauStepChart, BalancedAndDeadlocked) {
  const lau::Instance balanced = lau::balanced_instance({3, 3, 3});
  lau::Plan none;
  none.flows = {0, 0, 0};
  const std::string empty = lau_steps_svg(balanced, none, "");
  EXPECT_EQ(testkit::xml_problem(empty), "");
  EXPECT_NE(empty.find("no message"), std::string::npos);

  const lau::Instance ones = lau::balanced_instance({1, 1, 1});
  lau::Plan cycle;
  cycle.flows = {2, 2, 2};  // every node red: single-send deadlocks at once
  const std::string stuck = lau_steps_svg(ones, cycle, "");
  EXPECT_EQ(testkit::xml_problem(stuck), "");
  EXPECT_NE(stuck.find("deadlock"), std::string::npos);
}

TEST(LauStepChart, EscapesTheTitle) {
  lau::Plan plan;
  plan.flows = {1, 0};
  const std::string svg = lau_steps_svg(lau::balanced_instance({2, 0}), plan, "<a & b>");
  EXPECT_NE(svg.find("&lt;a &amp; b&gt;"), std::string::npos);
  EXPECT_EQ(testkit::xml_problem(svg), "") << svg;
}

TEST(LauStepChart, RefusesChartsBeyondItsLimits) {
  EXPECT_NO_THROW(
      require_step_chart_size(kStepChartMaxNodes, kStepChartMaxSteps, kStepChartMaxMessages));
  try {
    require_step_chart_size(kStepChartMaxNodes + 1, 0, 0);
    ADD_FAILURE() << "accepted too many nodes";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "gantt");
    EXPECT_NE(std::string(e.what()).find("omit --gantt"), std::string::npos) << e.what();
  }
  EXPECT_THROW(require_step_chart_size(2, kStepChartMaxSteps + 1, 0), InputError);
  EXPECT_THROW(require_step_chart_size(2, 1, kStepChartMaxMessages + 1), InputError);
  // 10^18 multi-send steps: known from the closed form, refused without simulating.
  const lau::Instance in = lau::balanced_instance({1, 1});
  lau::Plan huge;
  huge.mode = lau::Mode::multi;
  huge.flows = {1'000'000'000'000'000'000, 1'000'000'000'000'000'000};
  EXPECT_THROW(lau_steps_svg(in, huge, ""), InputError);
  huge.flows = {1, 0};
  EXPECT_THROW(lau_steps_svg(in, huge, ""), InputError);  // unbalanced
}

// An invalid plan (check --gantt): the reason in red, the named nodes outlined; unbalanced flows
// drawn as simulated, flows of another length as no message. Without a conflict they are refused.
TEST(LauStepChart, DrawsAnInvalidPlanWithItsConflict) {
  const lau::Instance in = lau::balanced_instance({7, 0, 3, 1, 1, 0});
  lau::Plan plan = figure2_plan();
  plan.flows = {5, 3, 4, 3, 2, 1};  // node 0 ends with 3, not 2
  EXPECT_THROW(lau_steps_svg(in, plan, "t"), InputError);
  const Conflict conflict{"the flows do not balance node 0", {0}};
  const std::string svg = lau_steps_svg(in, plan, "redist lau check", &conflict);
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find("<text class=\"alert\" x=\"12\" y=\"60\">invalid: the flows do not "
                     "balance node 0</text>"),
            std::string::npos);
  EXPECT_EQ(count_of(svg, "<rect class=\"conflict\""), 2u);  // node 0 and the legend's
  EXPECT_NE(svg.find("outlined in red: a node the first violation names"), std::string::npos);
  EXPECT_EQ(arrows(svg, "right"), 6u);  // every link sends rightwards, once
  plan.flows = {5, 3};
  const std::string short_flows = lau_steps_svg(in, plan, "t", &conflict);
  EXPECT_EQ(testkit::xml_problem(short_flows), "");
  EXPECT_EQ(arrows(short_flows, "right") + arrows(short_flows, "left"), 0u);
  EXPECT_NE(short_flows.find("2 flows for 6 nodes: no message drawn"), std::string::npos);
  const Conflict no_entry{"t_single is 1 but the flows give 5", {}};
  plan = figure2_plan();
  const std::string claim = lau_steps_svg(in, plan, "t", &no_entry);
  EXPECT_EQ(count_of(claim, "class=\"conflict\""), 0u);
  EXPECT_NE(claim.find(">invalid: t_single is 1 but the flows give 5<"), std::string::npos);
}

}  // namespace
}  // namespace redist::svg
