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
  EXPECT_EQ(*doc.t_step, 3.0);
  EXPECT_THROW(read_slicering_solution(parse_document(R"({"ring": [1.5], "alpha": [1]})")),
               InputError);
}

}  // namespace
}  // namespace redist::io
