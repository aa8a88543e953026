#include "experiments/star/star_experiment.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

namespace redist::experiments {
namespace {

TEST(StarExperiment, SmallRunWritesTablesAndFigures) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "redist-star-experiment-test").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  StarExperimentOptions options;
  options.out_dir = dir;
  options.seed = 5;
  options.instances = 20;
  options.small_instances = 5;
  const auto summary = run_star_experiment(options);
  EXPECT_EQ(summary["experiment"], "star");
  EXPECT_EQ(summary["seed"], 5);
  EXPECT_EQ(summary["instances"], 20);
  EXPECT_EQ(summary["files"].size(), 12u + 8u);
  EXPECT_EQ(summary["results"]["table1"].size(), 12u);
  EXPECT_EQ(summary["results"]["mbbsa_lazy"].size(), 12u);
  // On homogeneous links both variants are optimal (Theorem 3): the same makespans.
  EXPECT_EQ(summary["results"]["mbbsa_lazy"][0]["lazy better %"], 0.0);
  EXPECT_EQ(summary["results"]["mbbsa_lazy"][0]["lazy worse %"], 0.0);
  EXPECT_EQ(summary["results"]["table1"][0]["paper R-BSA mean"], 1.0014);
  for (const char* name : {"table1.json", "table1.md", "optimum.md", "mbbsa_lazy.md",
                           "figure22a.svg", "figure25c.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / name)) << name;
  }
  // Homogeneous platforms: BBA and MBBSA are optimal, so both are at distance 1 from the best.
  std::ifstream table(std::filesystem::path(dir) / "table1.json");
  const auto json = nlohmann::json::parse(table);
  EXPECT_EQ(json["rows"][0][3], 1.0);
  EXPECT_EQ(json["rows"][0][4], 1.0);
  // Figure 22(b) carries the value STAR's text states, as its own series.
  std::ifstream figure(std::filesystem::path(dir) / "figure22b.svg");
  const std::string svg{std::istreambuf_iterator<char>(figure), {}};
  EXPECT_NE(svg.find(">paper<"), std::string::npos);
  EXPECT_NE(svg.find("STAR Figure 22(b)"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace redist::experiments
