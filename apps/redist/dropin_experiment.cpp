// `redist experiment dropin` (docs/dropin-smpi.md): the drop-in replacement of MPI_Alltoallv
// against SimGrid SMPI's MPI_Alltoallv algorithms; the sweep is experiments/dropin.
#include "apps/redist/cli.hpp"
#include "experiments/dropin/smpi_dropin_experiment.hpp"
#include "redist/common/error.hpp"

namespace redist::cli {

void register_dropin_experiment(ExperimentRegistry& experiments) {
  experiments["dropin"] = Experiment(
      [](const ExperimentOptions& o) {
        if (o.seeds > 0) {
          throw InputError("dropin runs one scenario per cell (SMPI is deterministic); use --seed",
                           "--seeds");
        }
        experiments::DropinSmpiOptions options;
        options.out_dir = o.out_dir;
        options.seed = o.seed;
        options.quick = o.quick;
        return io::OrderedJson(experiments::run_dropin_smpi(options));
      },
      /*simulated=*/true);
  experiments["dropin"].description =
      "redist_alltoallv against every MPI_Alltoallv algorithm of SimGrid SMPI, 16 to 256 ranks "
      "(docs/dropin-smpi.md)";
}

}  // namespace redist::cli
