#include "redist/io/star_json.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"

namespace redist::io {
namespace {

std::string error_path(const std::string& text, bool order = false) {
  try {
    const Json doc = parse_document(text);
    if (order) {
      read_order_instance(doc);
    } else {
      read_star_instance(doc);
    }
  } catch (const InputError& e) {
    return e.path();
  }
  return "no error";
}

TEST(StarJson, InstanceErrorsNameTheField) {
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 2], "w": [1, 1], "loads": [1, 2, 3]}})"), "$.star.c");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1, 1], "w": [1, 1], "loads": [1, 2, 3]}})"),
            "$.star.w");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 0, 1], "w": [1, 1, 1], "loads": [1, 2, 3]}})"),
            "$.star.c[1]");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1, 1], "w": [1, 1, null], "loads": [1, 2, 3]}})"),
            "$.star.w[2]");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1, 1], "w": [1, 1, 1], "loads": [1, -2, 3]}})"),
            "$.star.loads[1]");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1, 1], "w": [1, 1, 1], "loads": [1, 2.0, 3]}})"),
            "$.star.loads[1]");
  EXPECT_EQ(error_path(R"({"star": {"c": [1], "w": [1], "loads": [1], "x": 1}})"), "$.star.x");
  EXPECT_EQ(error_path(R"({"star": {"c": [1], "w": [1]}})"), "$.star.loads");
  EXPECT_EQ(error_path(R"({"star": []})"), "$.star");
  EXPECT_EQ(error_path(R"([])"), "$");
  EXPECT_EQ(error_path(R"({"star": {"c": [], "w": [], "loads": []}})"), "$.star.loads");
  EXPECT_EQ(
      error_path(R"({"star": {"c": [1, 1], "w": [1, 1], "loads": [9223372036854775807, 1]}})"),
      "$.star.loads");
  EXPECT_EQ(error_path(R"({"star": {"c": [1], "w": [1e305], "loads": [1000000]}})"),
            "$.star.loads[0]");
  EXPECT_EQ(error_path(R"({"star": {"c": [1], "w": [1], "loads": [3]}})"), "no error");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1], "delta": [1, 0]}})", true), "$.star.delta");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1], "delta": [1]}})", true), "$.star.c");
  EXPECT_EQ(error_path(R"({"star": {"c": [1, 1], "delta": [1, -1]}})", true), "no error");
}

TEST(StarJson, ScheduleRoundTrip) {
  const star::Instance in{{2, 2, 2, 2}, {3, 3, 4, 4}, {8, 1, 1, 0}};
  const star::Schedule s = star::plan(in, {"mbbsa"});
  const StarScheduleDocument doc = read_star_schedule(star_schedule_json(s));
  const star::Schedule& back = doc.schedule;
  EXPECT_TRUE(doc.stated.makespan && doc.stated.finish);
  EXPECT_EQ(back.lower_bound, s.lower_bound);
  EXPECT_EQ(back.optimal, s.optimal);
  EXPECT_EQ(back.algorithm, "mbbsa");
  EXPECT_EQ(back.makespan, s.makespan);
  ASSERT_EQ(back.transfers.size(), s.transfers.size());
  EXPECT_EQ(back.finish, s.finish);
  EXPECT_TRUE(star::check(in, back).valid);
}

TEST(StarJson, ScheduleFormatErrors) {
  auto path = [](const std::string& text) {
    try {
      read_star_schedule(text);
    } catch (const InputError& e) {
      return e.path();
    }
    return std::string("no error");
  };
  EXPECT_EQ(path(R"({"makespan": 1})"), "$.transfers");
  EXPECT_EQ(path(R"({"transfers": [{"from": 0, "to": 1, "send_start": 0}]})"),
            "$.transfers[0].forward_start");
  EXPECT_EQ(path(R"({"transfers": [{"from": 0, "to": "1", "send_start": 0, "forward_start": 1}]})"),
            "$.transfers[0].to");
  EXPECT_EQ(path(R"({"transfers": [], "finish": [1, "x"]})"), "$.finish[1]");
  EXPECT_EQ(path(R"({"transfers": [], "makespan": "3"})"), "$.makespan");
  // Out-of-model values are read as they are (the validator rejects them).
  EXPECT_EQ(path(R"({"transfers": [{"from": -4, "to": 9, "send_start": -1, "forward_start": 0}]})"),
            "no error");
}

}  // namespace
}  // namespace redist::io
