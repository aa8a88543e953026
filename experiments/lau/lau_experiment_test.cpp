#include "experiments/lau/lau_experiment.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "redist/common/error.hpp"

namespace redist::experiments {
namespace {

TEST(LauExperiment, SmallRunWritesConsistentTables) {
  const auto dir = std::filesystem::temp_directory_path() / "redist-lau-experiment-test";
  std::filesystem::remove_all(dir);
  LauExperimentOptions o;
  o.out_dir = dir.string();
  o.instances = 300;
  o.seed = 3;
  const auto result = run_lau_experiment(o);
  EXPECT_EQ(result["experiment"], "lau");
  EXPECT_EQ(result["seed"], 3);
  EXPECT_EQ(result["instances"], 300);
  EXPECT_EQ(result["files"].size(), 10u);
  for (const auto& f : result["files"]) EXPECT_TRUE(std::filesystem::exists(f.get<std::string>()));
  for (const auto& row : result["results"]["tables_1_2"]) {
    // The paper's identity: Opt = 100% - (Linear=Opt + Traffic=Opt - All) holds when the
    // published algorithm is optimal; with its misses, Opt-only <= count - (L + T - All').
    const std::int64_t l = row["linear_opt"], t = row["traffic_opt"], all = row["all"],
                       only = row["opt_only"];
    EXPECT_LE(all, std::min(l, t));
    EXPECT_LE(only + std::max(l, t), 300);
    if (row["n"] == 4 && row["mode"] == "single") {
      EXPECT_GT(l, 150);  // small rings: mostly
    }
  }
  // Same seed, same tables.
  LauExperimentOptions again = o;
  again.out_dir = (dir / "again").string();
  const auto second = run_lau_experiment(again);
  EXPECT_EQ(result["results"], second["results"]);
  // The published values ride along: LAU Table 1, n = 50.
  EXPECT_EQ(result["results"]["tables_1_2"][0]["paper"]["linear_opt"], 2607);
  EXPECT_EQ(result["results"]["table_3"][1]["paper_equal"], "not published");  // n = 30
  std::ifstream t1(dir / "lau_table1.md");
  std::string first_line;
  std::getline(t1, first_line);
  EXPECT_FALSE(first_line.empty());
  std::filesystem::remove_all(dir);
}

// --instances had no upper limit: 10^7 per row would run for hours and hold the table 4 rows'
// instances in memory. It is refused before any work.
TEST(ResourceLimits, LauExperimentRefusesMoreInstancesThanItsLimit) {
  LauExperimentOptions o;
  o.out_dir = (std::filesystem::temp_directory_path() / "redist-lau-experiment-limit").string();
  o.instances = kLauExperimentMaxInstances + 1;
  try {
    run_lau_experiment(o);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "--instances");
  }
  EXPECT_FALSE(std::filesystem::exists(o.out_dir));
}

}  // namespace
}  // namespace redist::experiments
