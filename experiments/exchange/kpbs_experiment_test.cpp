#include "experiments/exchange/kpbs_experiment.hpp"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace redist::experiments {
namespace {

TEST(KpbsExperiment, SmallRunStaysWithinTheBoundsAndTheGuarantee) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "redist-kpbs-experiment-test").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto summary = run_kpbs_experiment({dir, 3, 4});
  EXPECT_EQ(summary["experiment"], "exchange");
  EXPECT_EQ(summary["instances"], 4);
  EXPECT_EQ(summary["files"].size(), 4u + 5u);
  for (const char* name : {"kpbs.json", "kpbs_edges.md", "kpbs_k2.svg", "kpbs_edges.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / name)) << name;
  }
  EXPECT_LE(summary["results"]["guarantee"].get<double>(), 1.0);
  const auto& rows = summary["results"]["kpbs"];
  ASSERT_EQ(rows.size(), 28u);
  for (const auto& row : rows) {
    for (const char* a : {"ggp", "oggp", "steps"}) {
      // Step schedules: never below eta; ggp and oggp within 2 (eta + beta) / eta.
      const double mean = row[std::string(a) + "/eta mean"].get<double>();
      const double max = row[std::string(a) + "/eta max"].get<double>();
      EXPECT_GE(mean, 1.0 - 1e-4) << a;
      EXPECT_LE(mean, max + 1e-4) << a;
      if (std::string(a) != "steps") {
        EXPECT_LE(max, 4.0) << a;
      }
    }
    for (const char* a : {"ggp", "oggp", "steps", "whole"}) {
      EXPECT_GE(row[std::string(a) + "/bound mean"].get<double>(), 1.0 - 1e-4) << a;
    }
    // preemptive applies without a backbone only (k = 20); without latency it meets the bound.
    EXPECT_EQ(row["preemptive/bound mean"].is_null(), row["k"] != 20);
    if (row["k"] == 20 && row["beta"] == 0) {
      EXPECT_NEAR(row["preemptive/bound mean"].get<double>(), 1.0, 1e-4);
      EXPECT_NEAR(row["ggp/bound mean"].get<double>(), 1.0, 1e-4);
    }
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace redist::experiments
