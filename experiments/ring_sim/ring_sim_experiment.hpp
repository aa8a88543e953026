// `redist experiment ring-sim`: RRV04 §8 rerun in SimGrid (docs/ring-sim.md), Figures 13 and 14.
//
// For each ring size p in {8, 32} and each of `seeds` scenarios (a Tiers-like platform, a ring of
// p hosts drawn from it, drifting speeds: sim/ring_sim.hpp), redist-ring-sim simulates every
// scheme at every computation-to-communication ratio of two axes (sim/ring_sim.hpp):
//  - the paper's (Figures 13 and 14): ratio 1..10 = the average cost of a redistribution (the mean
//    simulated duration of the redistributions of RRV04's four redistributing schemes that move a
//    column, on the run's network) over the balanced iteration time at the first speeds; at 10 a
//    redistribution costs ten iterations;
//  - the reference axis (the wide sweep): rho = balanced iteration time / T_ref, the planned
//    makespan of the redistribution from the first iteration's targets to the last's, from 0.01
//    (T_ref costs 100 iterations) to 10;
// each twice: on the Tiers routes (the results) and on a network where every ring link is a link
// of its own with the model's cost (the check that a simulated redistribution lasts what the
// planner says); and the paper's axis once more, on the Tiers routes, with small speed changes
// (`small_amplitude`: 1.3, a step up or down the machine list). Schemes: RRV04 §8's five (never,
// at:50, at:20,40,60,80, every:10, every:5), cost-benefit, replay (ours) and oracle (the hindsight
// optimum over the simulated durations). Outputs (docs/README.md): summary.json, tables as JSON and
// Markdown (normalized time, time over the oracle, per sweep), Figures 13 (p = 8) and 14 (p = 32)
// on the paper's axis, the same with small speed changes, and the wide sweep for both ring sizes,
// as SVG: the mean total time of each scheme over that of `never`, against the ratio. Runs `jobs`
// scenarios at once (default: the machine's cores); progress on standard error.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

inline constexpr std::int64_t kRingSimMaxSeeds = 1000;

struct RingSimExperimentOptions {
  std::string out_dir = "experiment-out";
  std::uint64_t seed = 1;        // scenario seeds: seed * 1000 + j, j = 0..seeds-1
  std::int64_t seeds = 0;        // scenarios per cell; 0: 20 (quick: 2)
  bool quick = false;            // ratios 1, 10 (paper's axis), 0.01, 1 (wide), 2 scenarios
  double amplitude = 8;          // a new speed is within this factor of the old (8: any machine)
  double small_amplitude = 1.3;  // the paper's axis again with this amplitude (Tiers routes); 0: no
  std::string program;           // redist-ring-sim; empty: the one beside the running executable
  unsigned jobs = 0;             // scenarios simulated at once; 0: the machine's cores
};

// InputError ("--seeds", "--amplitude", "ring-sim") for a seed count out of 1..kRingSimMaxSeeds,
// an amplitude below 28 / 22 or not finite (a small amplitude may also be 0), or a missing
// redist-ring-sim; StepFailed (experiments/ring_sim/subprocess.hpp) when a simulation fails.
nlohmann::ordered_json run_ring_sim_experiment(const RingSimExperimentOptions& options);

}  // namespace redist::experiments
