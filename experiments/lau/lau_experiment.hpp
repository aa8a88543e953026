// `redist experiment lau` (docs/README.md): LAU §6, Tables 1-4, plus how often and by how much the
// published Optimal algorithm (`optimal-window`, LAU Figure 9) misses the true optimum.
//
// Instances (Tables 1-3): for each n in {50, 30, 20, 10, 4}, `instances` load vectors of n loads
// drawn independently and uniformly in {0, ..., 100} with std::mt19937_64 and
// std::uniform_int_distribution, redrawn as a whole until the sum is divisible by n (rejection:
// uniform conditional on an integer average); targets = the average. Table 4 draws the same way
// with maximum loads 200, 100, 40 and n in {10, 20, 50}. Each (table, n, max load) uses its own
// generator seeded with seed * 1000003 + n * 1009 + max_load, so rows are independent of each
// other and of the instance count of other rows.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

// Instances per row: the paper's 50 000 take 75-120 s on 2 cores (progress on standard error); the
// table 4 rows keep their instances in memory; 100 000 took 6 min 11 s (92,716 KB) on the loaded
// machine. Above this, InputError at --instances.
inline constexpr std::int64_t kLauExperimentMaxInstances = 50'000;

struct LauExperimentOptions {
  std::string out_dir = "experiment-out";
  std::uint64_t seed = 1;
  std::int64_t instances = 50'000;  // per row
};

// Writes lau_table1..4 (.json, .md, with the paper's values beside ours) and lau_window_misses
// into out_dir; returns the common summary (experiment_files.hpp) whose "results" hold
// "tables_1_2" (counts per n and mode, with the paper's) and "table_3".
nlohmann::ordered_json run_lau_experiment(const LauExperimentOptions& options);

}  // namespace redist::experiments
