// The exchange Gantt chart: one send and one receive bar per piece, and an invalid plan's conflict
// (check --gantt): the named pieces' bars outlined, the reason in red, pieces that cannot be placed
// left out with a note. What a reader must be able to see, checked on the SVG text: labels that fit
// their bars and say which end they name, no text under 11 px, the makespan's unit, a colour and a
// legend entry per message, the latency hatched, a step plan's boundaries, the backbone's strip,
// no optimality claimed for an invalid plan, no two labels on top of each other.
#include "redist/svg/exchange_gantt.hpp"

#include <algorithm>
#include <limits>
#include <regex>
#include <set>

#include "redist/exchange/planner.hpp"

#include <gtest/gtest.h>

#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

using testkit::count_of;

// A bar and the label drawn on it (empty when none), as the SVG places them.
struct DrawnBar {
  double x = 0, width = 0, y = 0;
  std::string label;
  double label_x = 0;
};

// The bars of `svg`: each is a <g> holding a "bar" rectangle and at most one "lbl" text.
std::vector<DrawnBar> drawn_bars(const std::string& svg) {
  static const std::regex rect(
      R"re(<rect class="bar [^"]*" x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)")re");
  static const std::regex text(
      R"re(<text class="lbl [^"]*" x="([-0-9.]+)" y="[-0-9.]+">([^<]*)</text>)re");
  std::vector<DrawnBar> bars;
  for (auto at = svg.find("<g><title>"); at != std::string::npos;
       at = svg.find("<g><title>", at + 1)) {
    const std::string group = svg.substr(at, svg.find("</g>", at) - at);
    std::smatch m;
    if (!std::regex_search(group, m, rect)) continue;
    DrawnBar bar{std::stod(m[1]), std::stod(m[3]), std::stod(m[2]), "", 0};
    if (std::regex_search(group, m, text)) {
      bar.label_x = std::stod(m[1]);
      bar.label = m[2];
    }
    bars.push_back(bar);
  }
  return bars;
}

// The code points of a UTF-8 string.
double characters(const std::string& text) {
  return static_cast<double>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Every font size the document sets (style sheet and attributes).
std::vector<double> font_sizes(const std::string& svg) {
  static const std::regex size(R"re(font-size[:=]"?([0-9.]+))re");
  std::vector<double> sizes;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), size); it != std::sregex_iterator();
       ++it) {
    sizes.push_back(std::stod((*it)[1]));
  }
  return sizes;
}

// Nodes 0..3: one long message and short ones, so that some bars are too short for "to P1".
exchange::Instance long_and_short() {
  exchange::Instance in;
  in.nodes = 4;
  in.messages = {{0, 1, 1000}, {2, 1, 7}, {2, 3, 14}, {3, 0, 40}};
  in.send_bandwidth.assign(4, 1.0);
  in.recv_bandwidth.assign(4, 1.0);
  return in;
}

exchange::Instance triangle() {
  exchange::Instance in;
  in.nodes = 3;
  in.messages = {{0, 1, 4}, {1, 2, 2}, {0, 2, 2}};
  in.send_bandwidth.assign(3, 1.0);
  in.recv_bandwidth.assign(3, 1.0);
  return in;
}

exchange::Plan plan_of(std::vector<exchange::Piece> pieces, double makespan) {
  exchange::Plan p;
  p.algorithm = "hand";
  p.pieces = std::move(pieces);
  p.makespan = makespan;
  return p;
}

TEST(ExchangeGantt, DrawsTwoBarsPerPiece) {
  const std::string svg =
      exchange_gantt_svg(triangle(), plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 4, 2}}, 6), "t");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "<rect class=\"bar m"), 6u);
  EXPECT_EQ(count_of(svg, ">to P1<"), 1u);
  EXPECT_EQ(count_of(svg, ">from P0<"), 2u);
  EXPECT_EQ(count_of(svg, "class=\"conflict\""), 0u);
}

TEST(ExchangeGantt, OutlinesTheNamedPiecesOfAnInvalidPlan) {
  // Pieces 0 and 2 overlap on node 0's send port.
  const Conflict conflict{"pieces 0 and 2 overlap on the send port of node 0", {0, 2}};
  const std::string svg = exchange_gantt_svg(
      triangle(), plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 1, 2}}, 4), "check", &conflict);
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find(">invalid: pieces 0 and 2 overlap on the send port of node 0<"),
            std::string::npos);
  // Two bars per named piece, each with its outline, and the legend's swatch.
  EXPECT_EQ(count_of(svg, "<rect class=\"conflict\""), 5u);
}

TEST(ExchangeGantt, LeavesOutPiecesThatCannotBePlaced) {
  const Conflict conflict{"piece 1: a node out of range", {1}};
  const std::string svg = exchange_gantt_svg(
      triangle(),
      plan_of({{0, 1, 0, 4}, {1, 9, 0, 2}, {0, 2, -std::numeric_limits<double>::infinity(), 2}}, 4),
      "check", &conflict);
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "<rect class=\"bar m"), 2u);
  EXPECT_NE(svg.find("2 pieces not drawn"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<rect class=\"conflict\""), 0u);
}

TEST(ExchangeGantt, EveryLabelFitsItsBarAndNamesAnEnd) {
  const exchange::Instance in = long_and_short();
  const exchange::Plan plan =
      plan_of({{0, 1, 0, 1000}, {2, 1, 1000, 7}, {2, 3, 0, 14}, {3, 0, 0, 40}}, 1007);
  const std::string svg = exchange_gantt_svg(in, plan, "t");
  const std::vector<DrawnBar> bars = drawn_bars(svg);
  ASSERT_EQ(bars.size(), 8u);
  std::size_t labelled = 0, bare = 0;
  for (const DrawnBar& bar : bars) {
    if (bar.label.empty()) continue;
    ++labelled;
    const double half = 0.6 * 11.0 * characters(bar.label) / 2.0;
    EXPECT_GE(bar.label_x - half, bar.x) << bar.label;
    EXPECT_LE(bar.label_x + half, bar.x + bar.width) << bar.label;
    if (bar.label.find('P') == std::string::npos) ++bare;
  }
  EXPECT_EQ(bare, 0u);
  // The long piece's two bars are labelled in full, the 7-byte piece's bars (7 px) not at all.
  EXPECT_EQ(count_of(svg, ">to P1<"), 1u);
  EXPECT_EQ(count_of(svg, ">from P0<"), 1u);
  EXPECT_GE(labelled, 2u);
  EXPECT_LT(labelled, 8u);
}

TEST(ExchangeGantt, NoTextUnderElevenPixels) {
  const std::string svg = exchange_gantt_svg(
      long_and_short(),
      plan_of({{0, 1, 0, 1000}, {2, 1, 1000, 7}, {2, 3, 0, 14}, {3, 0, 0, 40}}, 1007), "t");
  const std::vector<double> sizes = font_sizes(svg);
  ASSERT_FALSE(sizes.empty());
  for (const double size : sizes) EXPECT_GE(size, 11.0);
}

TEST(ExchangeGantt, TheTitleGivesTheMakespanInSeconds) {
  const std::string svg =
      exchange_gantt_svg(triangle(), plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 4, 2}}, 6), "t");
  EXPECT_NE(svg.find("makespan 6 s<"), std::string::npos);
}

TEST(ExchangeGantt, FewMessagesGetAColourAndALegendEntryEach) {
  const std::string svg =
      exchange_gantt_svg(triangle(), plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 4, 2}}, 6), "t");
  std::set<std::string> colours;
  for (int m = 0; m < 3; ++m) {
    const std::string cls = "m" + std::to_string(m);
    EXPECT_EQ(count_of(svg, "<rect class=\"swatch " + cls + "\""), 1u) << cls;
    EXPECT_EQ(count_of(svg, "<rect class=\"bar " + cls + "\""), 2u) << cls;
    const auto at = svg.find(".bar." + cls + ",");
    ASSERT_NE(at, std::string::npos);
    const auto fill = svg.find("{fill:", at);
    colours.insert(svg.substr(fill, svg.find('}', fill) - fill));
  }
  EXPECT_EQ(colours.size(), 3u);  // three different colours
  EXPECT_NE(svg.find(">P0 \u2192 P1<"), std::string::npos);
  EXPECT_NE(svg.find(">P1 \u2192 P2<"), std::string::npos);
}

TEST(ExchangeGantt, ManyMessagesAreColouredBySender) {
  exchange::Instance in;
  in.nodes = 4;
  for (std::int64_t i = 0; i < 4; ++i) {
    for (std::int64_t j = 0; j < 4; ++j) {
      if (i != j) in.messages.push_back({i, j, 1});
    }
  }
  in.send_bandwidth.assign(4, 1.0);
  in.recv_bandwidth.assign(4, 1.0);
  const exchange::Plan plan = exchange::plan(in, "ggp");
  const std::string svg = exchange_gantt_svg(in, plan, "t");
  EXPECT_EQ(count_of(svg, "<rect class=\"swatch s"), 4u);
  EXPECT_NE(svg.find(">from P3<"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar s2\""), 6u);  // P2's 3 messages, sent and received
}

TEST(ExchangeGantt, TheLatencyIsTheHatchedStartOfEachPiece) {
  exchange::Instance in = triangle();
  const exchange::Plan plan = plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 5, 2}}, 8);
  EXPECT_EQ(count_of(exchange_gantt_svg(in, plan, "t"), "class=\"lead\""), 0u);
  in.latency = 1;
  const std::string svg = exchange_gantt_svg(in, plan, "t");
  EXPECT_EQ(count_of(svg, "<rect class=\"lead\""), 6u + 1u);  // two per piece, the legend's
  EXPECT_NE(svg.find("latency (1 s)"), std::string::npos);
}

TEST(ExchangeGantt, AStepPlanShowsOneNumberedBoundaryPerStep) {
  const exchange::Instance in = triangle();
  const exchange::Plan plan = exchange::plan(in, "ggp");
  ASSERT_TRUE(plan.steps.has_value());
  ASSERT_GE(plan.steps->count, 2u);
  ASSERT_EQ(plan.steps->starts.size(), plan.steps->count);
  const std::string svg = exchange_gantt_svg(in, plan, "t");
  EXPECT_EQ(count_of(svg, "<path class=\"section\""), plan.steps->count);
  EXPECT_NE(svg.find(">step 1<"), std::string::npos);
  // A plan without steps has no boundary.
  EXPECT_EQ(
      count_of(exchange_gantt_svg(in, exchange::plan(in, "preemptive"), "t"), "class=\"section\""),
      0u);
}

TEST(ExchangeGantt, ABackboneGetsAStripOfItsCrossingPieces) {
  exchange::Instance in = triangle();
  in.backbone =
      exchange::Backbone{{std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1, 2}}, 1};
  // Pieces 0 and 2 both cross (P0 to P1, P0 to P2) and overlap from 1 to 4: two at once.
  const std::string svg =
      exchange_gantt_svg(in, plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 1, 2}}, 4), "t");
  EXPECT_EQ(count_of(svg, "<line class=\"strip-limit\""), 1u);
  EXPECT_EQ(count_of(svg, "<rect class=\"strip-bar\""), 2u);       // [0, 1) and [3, 4)
  EXPECT_EQ(count_of(svg, "<rect class=\"strip-bar over\""), 1u);  // [1, 3)
  EXPECT_EQ(count_of(exchange_gantt_svg(triangle(), plan_of({{0, 1, 0, 4}}, 4), "t"),
                     "class=\"strip-bg\""),
            0u);
}

TEST(ExchangeGantt, AnInvalidPlanClaimsNoOptimality) {
  exchange::Plan plan = plan_of({{0, 1, 0, 4}, {1, 2, 0, 2}, {0, 2, 4, 2}}, 6);
  plan.lower_bound = 6;
  plan.optimal = true;
  EXPECT_NE(exchange_gantt_svg(triangle(), plan, "plan").find("proven optimal"), std::string::npos);
  const Conflict conflict{"pieces 0 and 2 overlap on the send port of node 0", {0, 2}};
  const std::string svg = exchange_gantt_svg(triangle(), plan, "check", &conflict);
  EXPECT_EQ(svg.find("optimal"), std::string::npos);
  EXPECT_NE(svg.find(">invalid: "), std::string::npos);
}

TEST(ExchangeGantt, OverlappingBarsDoNotStackTheirLabels) {
  exchange::Instance in = triangle();
  in.messages = {{0, 1, 40}, {0, 2, 40}};
  // Both pieces leave P0 at once (an invalid plan): their send bars coincide.
  const std::string svg = exchange_gantt_svg(in, plan_of({{0, 1, 0, 40}, {0, 2, 0, 40}}, 40), "t");
  std::vector<DrawnBar> labelled;
  for (const DrawnBar& bar : drawn_bars(svg)) {
    if (!bar.label.empty()) labelled.push_back(bar);
  }
  EXPECT_EQ(labelled.size(), 3u);  // one of the two send bars, and both receive bars
  for (std::size_t a = 0; a < labelled.size(); ++a) {
    for (std::size_t b = a + 1; b < labelled.size(); ++b) {
      if (labelled[a].y != labelled[b].y) continue;
      const double wa = 0.6 * 11.0 * characters(labelled[a].label) / 2.0;
      const double wb = 0.6 * 11.0 * characters(labelled[b].label) / 2.0;
      EXPECT_GE(std::abs(labelled[a].label_x - labelled[b].label_x), wa + wb);
    }
  }
}

}  // namespace
}  // namespace redist::svg
