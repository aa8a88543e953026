// The SMPI half of `redist experiment exchange` (docs/exchange.md, "Measurements on SMPI"):
// exchange plans executed by redist::mpi::Exchange against MPI_Alltoallv and ScaLAPACK's
// caterpillar, on simulated one-port platforms. smpi_exchange.py (copied beside `redist` in a
// build with SimGrid) writes the platforms and instances and runs redist-smpi-exchange under
// smpirun; this runs it twice, with SimGrid's TCP acknowledgement traffic (its default) and
// without, and turns its rows into tables and figures:
// - smpi_exchange.{json,md}, smpi_exchange_no_crosstraffic.{json,md}: every platform x pattern
//   (times in milliseconds, redist over its model, each baseline over redist);
// - smpi_exchange_speedup.svg: MPI_Alltoallv's time over redist's per pattern and platform;
// - smpi_exchange_model.svg: redist's measured time over its plan's model makespan.
// Runs in about 20 s (quick: one pattern on one platform, about 1 s).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "experiments/experiment_files.hpp"

namespace redist::experiments {

struct ExchangeSmpiOptions {
  std::uint64_t seed = 1;
  bool quick = false;  // smpi_exchange.py --quick
  std::string script;  // smpi_exchange.py; empty: the one beside the running executable
};

// Writes the files above into `out` and returns {"bandwidth_share", "rows"} per setting ("tcp",
// "no_crosstraffic"). InputError at "exchange" when the script is missing (a build without
// SimGrid); StepFailed (experiments/ring_sim/subprocess.hpp) when the script fails (its error's
// last line in the message), std::runtime_error when its output cannot be read.
nlohmann::ordered_json run_exchange_smpi(const ExchangeSmpiOptions& options, OutputDirectory& out);

// The two figures (smpi_exchange_speedup.svg, smpi_exchange_model.svg) again from the saved
// tables smpi_exchange.json and smpi_exchange_no_crosstraffic.json, without SimGrid. InputError
// at "table" when a column the figures need is missing.
std::pair<std::string, std::string> smpi_exchange_figures(
    const nlohmann::ordered_json& with_acknowledgements,
    const nlohmann::ordered_json& without_acknowledgements);

}  // namespace redist::experiments
