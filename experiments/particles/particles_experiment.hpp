// `redist experiment particles` (docs/zoltan.md, "Experiment"): when should a partitioned
// application rebalance? Every policy of balance/policy.hpp (4C's windowed threshold and mpm's
// fixed period with their published defaults among them) against the hindsight optimum, on
// recorded runs of the particle application, and redist's migrations against Zoltan's in SimGrid.
//
// 1. Recordings: for each drift of the ranks' speeds (steps, walk, transient) and each of `seeds`
//    seeds, examples/particles runs under mpirun with --record: Zoltan (RCB) proposes a partition
//    after every iteration from that iteration's particles and speeds (recording.hpp).
// 2. Replay: each recording on a one-port switch of heterogeneous NICs (log-uniform in [125 MB/s,
//    1.25 GB/s], seeded), a unit of work taking 1 ms at speed 1, with particles of 1 KiB, 16 KiB
//    and 256 KiB (migrations from cheap to dear): every policy's total time (iterations plus
//    planned migrations, policy_replay.hpp) over the hindsight optimum's.
// 3. Migrations in SimGrid: the optimum's migrations of the first seed of each regime (at most
//    four per regime), scaled so that no message exceeds 8 MiB (with latency 0 a run's time is
//    proportional to its bytes), run by smpi_exchange.py --instances: redist's plan, Zoltan's
//    pattern (posted_exchange) and MPI_Alltoallv; redist's time over its plan and theirs over
//    redist's.
// Outputs: particles_regimes.{json,md} (every regime: each policy's mean total over the optimum's),
// particles_policies.{json,md} (each policy over all regimes), particles_migration_costs.{json,md}
// (how many migrations the optimum and the best adaptive policy make, and their mean cost),
// particles_foresight.{json,md} (the rule that knows each proposal's saving over 5 to K
// iterations or over 2 to 12 payback times, not online, against the best adaptive policy),
// particles_migrations.{json,md},
// particles_policies.svg.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

inline constexpr std::int64_t kParticlesMaxSeeds = 100;
// The default: with 40 seeds per drift the standard error of a policy's mean over the regimes is
// about 0.006, small enough to tell 1.10 from 1.12 (with 10 seeds it was 0.010 to 0.013).
inline constexpr std::int64_t kParticlesDefaultSeeds = 40;

struct ParticlesExperimentOptions {
  std::string out_dir = "experiment-out";
  std::uint64_t seed = 1;   // recordings' seeds: seed, seed + 1, ...
  std::int64_t seeds = 0;   // per drift; 0: kParticlesDefaultSeeds (quick: 1)
  bool quick = false;       // 4 ranks, 1,500 particles, 30 iterations, one seed
  std::string program;      // examples/particles; empty: beside the running executable
  std::string smpi_script;  // smpi_exchange.py; empty: beside the running executable
  std::string mpirun = "mpirun";
};

// InputError ("--seeds", "particles") for a seed count out of 1..kParticlesMaxSeeds or a missing
// program; StepFailed (experiments/ring_sim/subprocess.hpp) when a recording or a simulation
// fails.
nlohmann::ordered_json run_particles_experiment(const ParticlesExperimentOptions& options);

// particles_policies.svg again from a saved particles_regimes.json (the table this experiment
// writes): the policies' means per regime, with error bars when the table has a column
// "<policy> standard error". InputError at "table" when a column the figure needs is missing.
std::string particles_policies_figure(const nlohmann::ordered_json& regimes_table);

}  // namespace redist::experiments
