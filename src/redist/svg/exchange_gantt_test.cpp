// The exchange Gantt chart: one send and one receive bar per piece, and an invalid plan's conflict
// (check --gantt): the named pieces' bars outlined, the reason in red, pieces that cannot be placed
// left out with a note.
#include "redist/svg/exchange_gantt.hpp"

#include <limits>

#include <gtest/gtest.h>

#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

using testkit::count_of;

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
  EXPECT_EQ(count_of(svg, "<rect class=\"bar send"), 3u);
  EXPECT_EQ(count_of(svg, "<rect class=\"bar recv"), 3u);
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
  EXPECT_EQ(count_of(svg, "<rect class=\"bar send"), 1u);
  EXPECT_NE(svg.find("2 pieces not drawn"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<rect class=\"conflict\""), 0u);
}

}  // namespace
}  // namespace redist::svg
