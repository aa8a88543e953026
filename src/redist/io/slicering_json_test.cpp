#include "redist/io/slicering_json.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::io {
namespace {

std::string error_path(const std::string& text) {
  try {
    read_cluster(parse_document(text));
  } catch (const InputError& e) {
    return e.path();
  }
  return "no error";
}

TEST(SlicingJson, ReadsTheSpecExample) {
  const auto cl = read_cluster(parse_document(
      R"({"cluster": {"w": [1, 2], "c": [[0, 0.5], [0.25, null]], "W": 1000.0, "H": 1.0}})"));
  EXPECT_EQ(cl.size(), 2u);
  EXPECT_DOUBLE_EQ(cl.cost(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(cl.cost(1, 0), 0.25);
  EXPECT_DOUBLE_EQ(cl.W, 1000.0);
  const auto round = read_cluster(Json::parse(write_cluster(cl).dump()));
  EXPECT_EQ(round.c, cl.c);
  EXPECT_EQ(round.w, cl.w);
}

TEST(SlicingJson, ErrorsNameTheirPath) {
  const std::string ok_c = R"("c": [[0, 1], [1, 0]])";
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 0], )" + ok_c + R"(, "W": 1, "H": 1}})"),
            "$.cluster.w[1]");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, -2], )" + ok_c + R"(, "W": 1, "H": 1}})"),
            "$.cluster.w[1]");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [], "c": [], "W": 1, "H": 1}})"), "$.cluster.w");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], "c": [[0, 1]], "W": 1, "H": 1}})"),
            "$.cluster.c");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], "c": [[0, 1], [1]], "W": 1, "H": 1}})"),
            "$.cluster.c[1]");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], "c": [[0, 1], [0, 0]], "W": 1, "H": 1}})"),
            "$.cluster.c[1][0]");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], "c": [[0, 1], ["x", 0]], "W": 1, "H": 1}})"),
            "$.cluster.c[1][0]");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], )" + ok_c + R"(, "W": 0, "H": 1}})"),
            "$.cluster.W");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], )" + ok_c + R"(, "W": 1, "H": -1}})"),
            "$.cluster.H");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], )" + ok_c + R"(, "W": 1}})"), "$.cluster.H");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], )" + ok_c + R"(, "W": 1, "H": 1, "h": 2}})"),
            "$.cluster.h");
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1], "c": 3, "W": 1, "H": 1}})"), "$.cluster.c");
  EXPECT_EQ(error_path(R"({"clusters": {}})"), "$.cluster");
}

TEST(SlicingJson, ReadsSolutions) {
  const auto doc = read_slicering_solution(
      parse_document(R"({"algorithm": "x", "ring": [2, 0], "alpha": [0.5, 0.5], "t_step": 3})"));
  EXPECT_EQ(doc.ring, (std::vector<long long>{2, 0}));
  EXPECT_EQ(*doc.claims.t_step, 3.0);
  EXPECT_THROW(read_slicering_solution(parse_document(R"({"ring": [1.5], "alpha": [1]})")),
               InputError);
}

std::string solution_error_path(const std::string& text) {
  try {
    read_slicering_solution(parse_document(text));
  } catch (const InputError& e) {
    return e.path();
  }
  return "no error";
}

// A misspelt member used to be ignored: `{"ring": .., "alpha": .., "t_stpe": 9}` checked nothing.
TEST(StrictCheck, SolutionMembersArePlanOutputMembersOnly) {
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "t_stpe": 9})"), "$.t_stpe");
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "makespan": "9"})"), "$.makespan");
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "optimal": 1})"), "$.optimal");
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "notes": [1]})"), "$.notes[0]");
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "tour_gap": "x"})"), "$.tour_gap");
  EXPECT_EQ(solution_error_path(R"({"ring": [0], "alpha": [1], "gap": "x"})"), "$.gap");
  // Everything `slicering plan` writes (tsp writes the most) reads back.
  slicering::Solution s;
  s.algorithm = "tsp";
  s.ring = {1, 0};
  s.alpha = {0.5, 0.5};
  s.makespan = 2.0;
  s.lower_bound = 1.5;
  s.tour_cost = 4.0;
  s.tour_lower_bound = 3.0;
  s.notes = {"a note"};
  const auto doc = read_slicering_solution(parse_document(write_slicering_solution(s).dump()));
  EXPECT_EQ(doc.algorithm, "tsp");
  EXPECT_EQ(*doc.claims.makespan, 2.0);
  EXPECT_EQ(*doc.claims.t_step, 2.0);
  EXPECT_EQ(doc.claims.lower_bound, 1.5);
  EXPECT_EQ(*doc.claims.optimal, false);
}

TEST(StrictCheck, ClusterDocumentHasOnlyTheClusterMember) {
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1], "c": [[0]], "W": 1, "H": 1}, "extra": 1})"),
            "$.extra");
}

TEST(Overflow, ReaderRefusesClustersWhoseTimesOverflow) {
  EXPECT_EQ(error_path(R"({"cluster": {"w": [1, 1, 2], "c": [[0, 1, 1], [1, 0, 1], [1, 1, 0]],
                           "W": 1, "H": 1e308}})"),
            "$.cluster.c[0][1]");
}

// A zero or non-finite ratio is not written as a gap.
TEST(Overflow, TourGapOnlyWhenItIsANumber) {
  slicering::Solution s;
  s.algorithm = "tsp";
  s.ring = {0};
  s.alpha = {1.0};
  s.tour_cost = 0.0;
  s.tour_lower_bound = 0.0;
  EXPECT_FALSE(write_slicering_solution(s).contains("tour_gap"));
  s.tour_cost = 1e300;
  s.tour_lower_bound = 1e-300;
  EXPECT_FALSE(write_slicering_solution(s).contains("tour_gap"));
}

}  // namespace
}  // namespace redist::io
