#include "sim/ring_sim_report.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace redist::sim {
namespace {

RingSimReport small_report() {
  RingSimReport r;
  r.seed = 3;
  r.processors = 3;
  r.mode = "tiers";
  r.axis = "paper";
  r.amplitude = 8;
  r.iterations = 100;
  r.columns = 50;
  r.column_bytes = 8000;
  r.reference_redistribution = 0.25;
  r.average_redistribution = 0.5;
  r.redistributions_averaged = 4;
  r.ring = {"host-7", "host-2", "host-11"};
  r.chunk_next = {3, 1, 2};
  r.chunk_prev = {1, 1, 4};
  r.runs.push_back({1, "never", "never", 2e6, 0.5, 50, 50, 0, 50, {}});
  r.runs.push_back({1, "oracle", "at:30", 2e6, 0.5, 41.5, 41, 0.5, 41.25, {{30, 0.25, 0.5}}});
  r.runs.push_back({2, "never", "never", 1e6, 0.25, 25, 25, 0, 25, {}});
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(RingSimReport, JsonIsOneLineUnlessIndented) {
  const RingSimReport r = small_report();
  const std::string line = ring_sim_json(r, false);
  const std::string indented = ring_sim_json(r, true);
  EXPECT_EQ(count(line, "\n"), 1u);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_GT(count(indented, "\n"), 20u);
  EXPECT_EQ(nlohmann::json::parse(line), nlohmann::json::parse(indented));
  const auto doc = nlohmann::json::parse(line);
  EXPECT_EQ(doc["scenario"]["ring"][2], "host-11");
  EXPECT_EQ(doc["scenario"]["redistributions_averaged"], 4);
  ASSERT_EQ(doc["runs"].size(), 3u);
  EXPECT_EQ(doc["runs"][1]["policy"], "at:30");
  EXPECT_EQ(doc["runs"][1]["rebalances"][0]["after_iteration"], 30);
  EXPECT_EQ(doc["runs"][1]["rebalances"][0]["simulated"], 0.5);
  EXPECT_EQ(doc["runs"][1]["total_time"], 41.5);
  EXPECT_EQ(doc["runs"][1]["model_total_time"], 41.25);
}

TEST(RingSimReport, TextShowsTheScenarioAndOneTablePerRatio) {
  const std::string text = ring_sim_text(small_report());
  EXPECT_NE(text.find("redist-ring-sim: a ring of 3 processors (seed 3) on the Tiers routes, 100 "
                      "iterations of 50 columns (8000 bytes each)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  ring      host-7 host-2 host-11\n"), std::string::npos) << text;
  EXPECT_NE(text.find("A_red       0.5 s (mean simulated duration of 4 redistributions)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("T_ref       0.25 s"), std::string::npos) << text;
  EXPECT_NE(text.find("columns per message, next: 3 1 2; prev: 1 1 4"), std::string::npos);
  EXPECT_EQ(count(text, "  scheme "), 2u) << text;  // ratios 1 and 2
  EXPECT_NE(text.find("ratio 2: balanced iteration 0.25 s (1000000 flops per column)"),
            std::string::npos)
      << text;
  const auto oracle = text.find("  oracle ");
  ASSERT_NE(oracle, std::string::npos) << text;
  const std::string row = text.substr(oracle, text.find('\n', oracle) - oracle);
  EXPECT_NE(row.find(" 41.5 "), std::string::npos) << row;
  EXPECT_NE(row.find(" 41.25 "), std::string::npos) << row;
  EXPECT_TRUE(row.ends_with("after 30")) << row;
  EXPECT_EQ(count(text, "none\n"), 2u) << text;  // the two `never` runs
}

TEST(RingSimReport, TextOfTheReferenceAxisAndTheModelNetwork) {
  RingSimReport r = small_report();
  r.axis = "reference";
  r.mode = "model";
  r.redistributions_averaged = 0;
  const std::string text = ring_sim_text(r);
  EXPECT_NE(text.find("the model's network (one link per ring link)"), std::string::npos);
  EXPECT_NE(text.find("reference: ratio rho = I / T_ref"), std::string::npos);
  EXPECT_EQ(text.find("A_red"), std::string::npos) << text;
}

TEST(RingSimReport, LongTablesAreCut) {
  RingSimReport r = small_report();
  r.runs.assign(250, r.runs[0]);
  const std::string text = ring_sim_text(r);
  EXPECT_NE(text.find("... and 50 more (the JSON output lists every one)"), std::string::npos);
  EXPECT_EQ(count(text, "  never "), 200u);
}

}  // namespace
}  // namespace redist::sim
