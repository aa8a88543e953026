// `redist experiment dropin` (docs/dropin-smpi.md): redist_alltoallv, the drop-in replacement of
// MPI_Alltoallv (redist/mpi/dropin.h), against every MPI_Alltoallv algorithm of SimGrid SMPI on
// simulated one-port platforms of 16, 64 and 256 ranks. smpi_dropin.py (copied beside `redist` in
// a build with SimGrid) generates the platforms and patterns, runs redist-smpi-dropin under smpirun
// and writes dropin_smpi.{json,md,svg} into the output directory; this runs it, its progress on
// standard error, and returns its summary. About 30 minutes (quick: 16 ranks, 3 algorithms, 3
// patterns, about 10 s).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

struct DropinSmpiOptions {
  std::string out_dir;
  std::uint64_t seed = 1;
  bool quick = false;  // smpi_dropin.py --quick
  std::string script;  // smpi_dropin.py; empty: the one beside the running executable
};

// Runs the script into options.out_dir and returns the experiment's summary ({"experiment",
// "seed", "instances", "files", "results": the script's summary and failures}). InputError at
// "dropin" when the script is missing (a build without SimGrid); StepFailed
// (experiments/ring_sim/subprocess.hpp) when the script fails (a run failed or an element was not
// delivered).
nlohmann::ordered_json run_dropin_smpi(const DropinSmpiOptions& options);

}  // namespace redist::experiments
