// `redist experiment ring-sim`: RRV04 §8 rerun in SimGrid (docs/ring-sim.md), Figures 13 and 14.
//
// For each ring size p in {8, 32} and each of `seeds` scenarios (a Tiers-like platform, a ring of
// p hosts drawn from it, drifting speeds: sim/ring_sim.hpp), redist-ring-sim simulates every
// scheme at every computation-to-communication ratio (the paper's 1..10, and 0.01, 0.03, 0.1,
// 0.3, where a redistribution costs 3 to 100 iterations), twice: on the Tiers routes (the results)
// and on a network where every ring link is a link of its own with the model's cost (the check
// that a simulated redistribution lasts what the planner says). Schemes: RRV04 §8's five (never,
// at:50, at:20,40,60,80, every:10, every:5), cost-benefit, replay (ours) and oracle (the
// hindsight optimum over the simulated durations).
// Outputs (docs/README.md): summary.json, tables as JSON and Markdown (normalized time, time over
// the oracle, redistributions against the model), Figures 13 (p = 8) and 14 (p = 32) as SVG: the
// mean total time of each scheme over that of `never`, against the ratio.
// Runs `jobs` scenarios at once (default: the machine's cores); progress on standard error.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

inline constexpr std::int64_t kRingSimMaxSeeds = 1000;

struct RingSimExperimentOptions {
  std::string out_dir = "experiment-out";
  std::uint64_t seed = 1;  // scenario seeds: seed * 1000 + j, j = 0..seeds-1
  std::int64_t seeds = 0;  // scenarios per cell; 0: 20 (quick: 2)
  bool quick = false;      // ratios 1, 4, 7, 10 instead of 1..10, 2 scenarios per cell
  std::string program;     // redist-ring-sim; empty: the one beside the running executable
  unsigned jobs = 0;       // scenarios simulated at once; 0: the machine's cores
};

// InputError ("--seeds", "ring-sim") for a seed count out of 1..kRingSimMaxSeeds or a missing
// redist-ring-sim; std::runtime_error when a simulation fails.
nlohmann::ordered_json run_ring_sim_experiment(const RingSimExperimentOptions& options);

}  // namespace redist::experiments
