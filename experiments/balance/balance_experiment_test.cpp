#include "experiments/balance/balance_experiment.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

namespace redist::experiments {
namespace {

// The tuning traces (seed 1) and those of the reporting seed and the next ones share no trace:
// 42 cells (3 drifts x 2 ring sizes x 7 ratios) of up to the maximum number of instances each.
TEST(BalanceExperiment, SeedsShareNoTrace) {
  EXPECT_NE(kBalanceTuningSeed, kBalanceReportingSeed);
  EXPECT_EQ(BalanceExperimentOptions{}.seed, kBalanceReportingSeed);
  std::set<std::uint64_t> seen;
  std::size_t drawn = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed)
    for (std::size_t cell = 0; cell < 42; ++cell)
      for (std::int64_t n = 0; n < kBalanceExperimentMaxInstances; ++n, ++drawn)
        seen.insert(balance_trace_seed(seed, cell, n));
  EXPECT_EQ(seen.size(), drawn);
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A small run (p = 8, one trace per cell): the default reports on held-out traces and says so,
// seed 1 says it is in-sample, and no policy beats the hindsight optimum.
TEST(BalanceExperiment, ReportsWhetherTheTracesAreHeldOut) {
  const auto dir = std::filesystem::temp_directory_path() / "redist-balance-experiment-test";
  std::filesystem::remove_all(dir);
  BalanceExperimentOptions o;
  o.out_dir = dir.string();
  o.instances = 1;
  o.processors = {8};
  const auto held_out = run_balance_experiment(o);
  EXPECT_EQ(held_out["seed"], kBalanceReportingSeed);
  EXPECT_EQ(held_out["results"]["tuning_seed"], kBalanceTuningSeed);
  EXPECT_TRUE(held_out["results"]["held_out"].get<bool>());
  EXPECT_NE(read(dir / "balance_vs_fixed.md").find("held-out traces"), std::string::npos);
  EXPECT_EQ(held_out["results"]["policies"].size(), experiment_policies().size());
  for (const auto& [name, r] : held_out["results"]["policies"].items()) {
    EXPECT_GE(r["mean_over_oracle"].get<double>(), 1 - 1e-9) << name;
    EXPECT_GE(r["cells_over_2pct_behind_best_fixed"].get<int>(), 0) << name;
    EXPECT_LE(r["cells_over_2pct_behind_best_fixed"].get<int>(), 21) << name;
  }
  o.seed = kBalanceTuningSeed;
  const auto tuning = run_balance_experiment(o);
  EXPECT_FALSE(tuning["results"]["held_out"].get<bool>());
  EXPECT_NE(read(dir / "balance_vs_fixed.md").find("in-sample"), std::string::npos);
  EXPECT_NE(tuning["results"]["policies"], held_out["results"]["policies"]);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace redist::experiments
