#include "experiments/slicering/slicering_experiment.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "redist/testing/data_dir.hpp"

#include "experiments/slicering/platforms.hpp"

namespace redist::experiments {
namespace {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SlicingExperiment, EmbeddedPlatformsAreTheDataFiles) {
  const auto data = redist::testkit::data_dir() / "slicering";
  EXPECT_EQ(slurp(data / "lyon.json"), kLyonPlatformJson);
  EXPECT_EQ(slurp(data / "strasbourg.json"), kStrasbourgPlatformJson);
}

TEST(SlicingExperiment, QuickRunWritesTablesAndFigures) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "redist-slicering-experiment-test").string();
  std::filesystem::remove_all(dir);
  const auto summary = run_slicering_experiment(dir, true);
  EXPECT_EQ(summary["experiment"], "slicering");
  EXPECT_TRUE(summary["seed"].is_null());  // nothing random
  EXPECT_EQ(summary["files"].size(), 8u);
  for (const char* name : {"table5_lyon.json", "table5_lyon.md", "table6_strasbourg.json",
                           "figure3.json", "figure3_lyon.svg", "figure3_strasbourg.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / name)) << name;
  }
  // The full-ring optimum in published units is within 0.2% of PIP's published value.
  for (const char* platform : {"lyon", "strasbourg"}) {
    const auto& r = summary["results"][platform];
    const double ratio = r["full_ring_exact_published_units"].get<double>() /
                         r["full_ring_published_pip"].get<double>();
    EXPECT_NEAR(ratio, 1.0, 0.002) << platform;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace redist::experiments
