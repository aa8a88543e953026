#include "redist/io/lau_json.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::io {
namespace {

std::string error_of(const std::string& text, bool with_flows) {
  try {
    read_lau_document(parse_document(text), with_flows);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LauJson, ReadsLoadsAndTargets) {
  const LauDocument d =
      read_lau_document(parse_document(R"({"lau": {"loads": [7, 0, 3, 1, 1, 0]}})"), false);
  EXPECT_EQ(d.instance.targets, (std::vector<std::int64_t>(6, 2)));
  const LauDocument t =
      read_lau_document(parse_document(R"({"lau": {"loads": [4, 0], "targets": [1, 3]}})"), false);
  EXPECT_EQ(t.instance.targets, (std::vector<std::int64_t>{1, 3}));
  const LauDocument f = read_lau_document(
      parse_document(R"({"lau": {"loads": [7, 0, 3, 1, 1, 0], "flows": [2, 0, 1, 0, -1, -3]}})"),
      true);
  EXPECT_EQ(f.flows, (std::vector<std::int64_t>{2, 0, 1, 0, -1, -3}));
}

TEST(LauJson, ErrorsNameTheirPath) {
  EXPECT_EQ(error_of(R"({"lau": {"loads": [1, -2, 4]}})", false),
            "load must be >= 0 (at $.lau.loads[1])");
  EXPECT_EQ(error_of(R"({"lau": {"loads": [1, 2, 4]}})", false),
            "sum of loads 7 is not divisible by n = 3 (give targets to balance to other values) "
            "(at $.lau.loads)");
  EXPECT_EQ(error_of(R"({"lau": {"loads": [4]}})", false),
            "a ring needs at least 2 nodes, got 1 (at $.lau.loads)");
  EXPECT_EQ(error_of(R"({"lau": {"loads": [9223372036854775807, 1]}})", false),
            "sum of loads overflows 64 bits (at $.lau.loads)");
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 2.5]}})", false).find("(at $.lau.loads[1])"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"lau": {"loads": [1, 3], "targets": [3, 3]}})", false),
            "targets sum to 6, loads to 4 (they must be equal) (at $.lau.targets)");
  EXPECT_EQ(error_of(R"({"lau": {"loads": [1, 3], "targets": [5, -1]}})", false),
            "target must be >= 0 (at $.lau.targets[1])");
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 3], "lods": 1}})", false).find("(at $.lau.lods)"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"lau": {"loads": [1, 3], "flows": [1, 0]}})", false).find("(at $.lau.flows)"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 3]}})", true).find("(at $.lau.flows)"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"lau": {"loads": [1, 3], "flows": [1]}})", true),
            "has 1 entries, loads has 2 (at $.lau.flows)");
  EXPECT_EQ(
      error_of(R"({"lau": {"loads": [7, 0, 3, 1, 1, 0], "flows": [2, 0, 1, 0, -1, -2]}})", true),
      "the flows do not balance node 0: it would end with 3 instead of 2 (at $.lau.flows[0])");
  EXPECT_NE(error_of(R"({"ring": {}})", false).find("(at $.lau)"), std::string::npos);
}

TEST(LauJson, WritesThePlan) {
  lau::Plan p;
  p.algorithm = "optimal";
  p.flows = {2, 0, -2};
  p.h = 3;
  p.t_single = 2;
  p.t_multi = std::nullopt;
  p.traffic = 4;
  p.mode = lau::Mode::multi;
  p.prove_optimal(Proof::lower_bound);
  const Json j = Json::parse(lau_plan_json(p));
  EXPECT_EQ(j["algorithm"], "optimal");
  EXPECT_EQ(j["mode"], "multi");
  EXPECT_EQ(j["flows"], Json::parse("[2, 0, -2]"));
  EXPECT_EQ(j["h"], 3);
  EXPECT_EQ(j["t_single"], 2);
  EXPECT_TRUE(j["t_multi"].is_null());
  EXPECT_EQ(j["traffic"], 4);
  EXPECT_EQ(j["optimal"], true);
}

// A misspelt top-level member (`"flow"` beside `"lau"`) used to be ignored.
TEST(StrictCheck, LauDocumentsHaveOnlyTheLauMember) {
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 1], "flows": [0, 0]}, "flow": [5, 5]})", true)
                .find("(at $.flow)"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 1]}, "targets": [2, 0]})", false).find("$.targets"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"lau": {"loads": [1, 1], "flows": [0, 0, 0]}})", true)
                .find("has 3 entries, loads has 2 (at $.lau.flows)"),
            std::string::npos);
}

TEST(LauJson, ReadsAPlanAndWhatItStates) {
  const LauPlanDocument doc = read_lau_plan(
      Json::parse(R"({"flows": [2, 0, -2], "mode": "multi", "t_single": null, "h": 3})"));
  EXPECT_EQ(doc.plan.flows, (std::vector<std::int64_t>{2, 0, -2}));
  EXPECT_EQ(doc.plan.mode, lau::Mode::multi);
  EXPECT_TRUE(doc.stated.t_single);
  EXPECT_FALSE(doc.plan.t_single.has_value());
  EXPECT_FALSE(doc.stated.t_multi);
  EXPECT_TRUE(doc.stated.h);
  EXPECT_EQ(doc.plan.h, 3);
  EXPECT_FALSE(doc.stated.traffic);
  try {
    read_lau_plan(Json::parse(R"({"flows": [1, -1], "mode": "dual"})"));
    ADD_FAILURE() << "accepted mode dual";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "$.mode");
  }
}

}  // namespace
}  // namespace redist::io
