// The SliceRing picture: well-formed SVG, every member, link and left-out processor drawn, the
// title's claims, and the size limits.
#include "redist/svg/slicering_ring.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/testing/xml_check.hpp"

namespace redist::svg {
namespace {

using testkit::count_of;

slicering::Cluster cluster_of(std::size_t p) {
  slicering::Cluster c;
  c.W = 100;
  c.H = 1;
  for (std::size_t i = 0; i < p; ++i) c.w.push_back(1.0 + static_cast<double>(i % 3));
  c.c.assign(p * p, 0.5);
  c.c[0 * p + 1] = 0.25;  // one asymmetric link
  return c;
}

TEST(SliceRingPicture, DrawsMembersLinksAndLeftOutProcessors) {
  const slicering::Cluster cluster = cluster_of(6);
  slicering::Solution s;
  s.algorithm = "greedy";
  s.ring = {0, 1, 3, 4};
  s.alpha = {0.4, 0.2, 0.3, 0.1};
  s.makespan = 41.0;
  s.lower_bound = 30.5;
  const std::string svg = slicering_ring_svg(cluster, s, "redist slicering plan");
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "<circle class=\"node"), 4u + 2u);  // members and the legend's two
  EXPECT_EQ(count_of(svg, "<line class=\"link\" x1="), 4u + 1u);
  EXPECT_EQ(count_of(svg, "<rect class=\"unchosen\""), 2u);
  EXPECT_NE(svg.find("greedy: makespan (T_step) 41, q = 4 of 6, lower bound 30.5, optimal: not "
                     "proven"),
            std::string::npos);
  EXPECT_NE(svg.find(">c 0.25 / 0.5<"), std::string::npos);
  EXPECT_NE(svg.find(">P2 · w 3<"), std::string::npos);
  EXPECT_NE(svg.find("w 1, α 40%"), std::string::npos);
}

TEST(SliceRingPicture, SmallRings) {
  const slicering::Cluster cluster = cluster_of(3);
  for (std::size_t q = 1; q <= 3; ++q) {
    const slicering::Solution s = slicering::plan(cluster, {"exact", q});
    const std::string svg = slicering_ring_svg(cluster, s, "");
    EXPECT_EQ(testkit::xml_problem(svg), "") << q;
    EXPECT_EQ(count_of(svg, "<line class=\"link\" x1="), (q == 1 ? 0u : q == 2 ? 1u : 3u) + 1u);
    EXPECT_NE(svg.find(s.optimal ? "optimal: yes" : "optimal: not proven"), std::string::npos);
    EXPECT_NE(svg.find("critical\" cx"), std::string::npos) << "no member at the makespan";
  }
}

TEST(SliceRingPicture, RefusesPicturesBeyondItsLimits) {
  EXPECT_NO_THROW(require_ring_picture_size(kRingPictureMaxProcessors, kRingPictureMaxRing));
  try {
    require_ring_picture_size(kRingPictureMaxProcessors + 1, 0);
    ADD_FAILURE() << "accepted too many processors";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "gantt");
    EXPECT_NE(std::string(e.what()).find("omit --gantt"), std::string::npos) << e.what();
  }
  EXPECT_THROW(require_ring_picture_size(100, kRingPictureMaxRing + 1), InputError);
  slicering::Solution twice;
  twice.ring = {1, 1};
  twice.alpha = {0.5, 0.5};
  EXPECT_THROW(slicering_ring_svg(cluster_of(3), twice, ""), InputError);
}

// An invalid solution (check --gantt): the reason in red, the named members outlined; a processor
// named twice is drawn at both places; a ring that cannot be drawn is left out with a note.
TEST(SliceRingPicture, DrawsAnInvalidSolutionWithItsConflict) {
  slicering::Solution twice;
  twice.ring = {2, 0, 2};
  twice.alpha = {0.3, 0.4, 0.3};
  const Conflict conflict{"processor 2 appears twice in the ring", {0, 2}};
  const std::string svg = slicering_ring_svg(cluster_of(4), twice, "check", &conflict);
  EXPECT_EQ(testkit::xml_problem(svg), "");
  EXPECT_NE(svg.find(">invalid: processor 2 appears twice in the ring</text>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<circle class=\"conflict\""), 3u);  // two members and the legend's
  EXPECT_EQ(count_of(svg, ">P2</text>"), 2u);
  EXPECT_NE(svg.find("not in the ring (2 processors"), std::string::npos);  // P1 and P3
  slicering::Solution unknown;
  unknown.ring = {1, 7};
  unknown.alpha = {0.5, 0.5};
  const Conflict named{"ring[1] = 7 is not a processor (p = 4)", {1}};
  const std::string left_out = slicering_ring_svg(cluster_of(4), unknown, "check", &named);
  EXPECT_EQ(testkit::xml_problem(left_out), "");
  EXPECT_EQ(count_of(left_out, "<circle class=\"node"), 2u);  // the legend's two only
  EXPECT_NE(left_out.find("the ring is not drawn: a ring member is no processor of the cluster"),
            std::string::npos);
}

}  // namespace
}  // namespace redist::svg
