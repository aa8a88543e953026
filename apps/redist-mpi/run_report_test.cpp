#include "apps/redist-mpi/run_report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace redist::mpi {
namespace {

RunReport verified_run() {
  RunReport r;
  r.strategy = "redist";
  r.mode = "ring";
  r.algorithm = "light";
  r.ranks = 3;
  r.items = 23;
  r.item_bytes = 64;
  r.flows = {4, -2, 0};
  r.rotation = 0;
  r.segment_items = 8;
  r.model_makespan = 12.5;
  r.measured_seconds = 0.25;
  r.check_seconds = 0.001;
  r.max_staging_bytes = 1024;
  r.messages = 6;
  r.request_slots = 4;
  return r;
}

TEST(RunReport, JsonLineKeepsItsFieldsAndOrder) {
  const std::string line = run_report_json(verified_run());
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_TRUE(line.starts_with("{\"strategy\": \"redist\", \"ranks\": 3, \"items\": 23, ")) << line;
  EXPECT_NE(line.find("\"flows\": [4, -2, 0], \"rotation\": 0"), std::string::npos) << line;
  EXPECT_NE(line.find("\"bad_items\": 0, \"verified\": true}"), std::string::npos) << line;
  const auto doc = nlohmann::json::parse(line);
  EXPECT_EQ(doc["model_makespan"], 12.5);
  EXPECT_EQ(doc["measured_seconds"], 0.25);
  EXPECT_EQ(doc["max_staging_bytes"], 1024);
}

TEST(RunReport, AlltoallvHasNoModelMakespan) {
  RunReport r = verified_run();
  r.strategy = "alltoallv";
  r.algorithm = "alltoallv";
  r.model_makespan.reset();
  EXPECT_TRUE(nlohmann::json::parse(run_report_json(r))["model_makespan"].is_null());
  EXPECT_NE(run_report_text(r).find("model       none (MPI_Alltoallv's messages"),
            std::string::npos)
      << run_report_text(r);
}

TEST(RunReport, TextOfAVerifiedRun) {
  const std::string text = run_report_text(verified_run());
  EXPECT_TRUE(
      text.starts_with("redist-mpi: 23 items of 64 bytes redistributed on 3 ranks, "
                       "verified\n\n"))
      << text;
  EXPECT_NE(text.find("strategy    redist: the planned ring schedule, ring mode, on a "
                      "bidirectional ring\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("algorithm   light\n"), std::string::npos) << text;
  EXPECT_NE(text.find("flows       4 -2 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("model       12.5 (the plan's makespan"), std::string::npos) << text;
  EXPECT_NE(text.find("measured    0.25 s (the slowest rank; the collective checks alone: "
                      "0.001 s)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("staging     1024 bytes at most on one rank"), std::string::npos) << text;
  EXPECT_NE(text.find("verified    yes ("), std::string::npos) << text;
}

TEST(RunReport, TextSaysWhyARunIsNotVerified) {
  RunReport r = verified_run();
  r.bad_items = 2;
  r.memory_ok = false;
  EXPECT_FALSE(r.verified());
  const std::string text = run_report_text(r);
  EXPECT_NE(text.find("3 ranks, NOT verified\n"), std::string::npos) << text;
  EXPECT_NE(text.find("verified    NO: 2 items out of place on one rank; a rank staged more "
                      "than its bound\n"),
            std::string::npos)
      << text;
  EXPECT_NE(run_report_json(r).find("\"verified\": false}"), std::string::npos);
}

}  // namespace
}  // namespace redist::mpi
