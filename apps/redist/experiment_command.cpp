// `redist experiment NAME [--out DIR] [--seed S] [--instances N]` (docs/README.md): reruns a
// paper's experiment and writes its tables and figures. The experiments themselves are registered
// by their families (see ExperimentRegistry in cli.hpp).
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/suggest.hpp"

namespace redist::cli {

namespace {

struct ExperimentArgs {
  std::string name;
  ExperimentOptions options;
  bool instances_given = false;  // --instances on the command line (0 stands for "not given")
  bool seeds_given = false;
};

int run_experiment(const ExperimentArgs& args, const ExperimentRegistry& experiments) {
  const auto it = experiments.find(args.name);
  if (it == experiments.end()) {
    std::vector<std::string> names;
    for (const auto& [name, runner] : experiments) names.push_back(name);
    throw InputError(
        fmt::format("unknown experiment '{}'{} (available: {})", one_line(args.name, 40),
                    io::did_you_mean(args.name, names),
                    names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))),
        "command line");
  }
  if (args.instances_given && args.options.instances < 1)
    throw InputError("must be >= 1 (leave it out for the paper's count)", "--instances");
  if (args.seeds_given && args.options.seeds < 1)
    throw InputError("must be >= 1 (leave it out for the default)", "--seeds");
  const bool simulated_options = args.options.seeds > 0 || args.options.quick;
  if (simulated_options && !it->second.simulated)
    throw InputError(fmt::format("--seeds and --quick apply to simulated experiments only, not to "
                                 "'{}' (it takes --instances)",
                                 args.name),
                     simulated_options && args.options.quick ? "--quick" : "--seeds");
  if (args.options.instances > 0 && it->second.simulated)
    throw InputError(fmt::format("'{}' takes --seeds, not --instances", args.name), "--instances");
  std::error_code error;
  std::filesystem::create_directories(args.options.out_dir, error);
  if (error) {
    throw InputError(
        fmt::format("cannot create directory '{}': {}", args.options.out_dir, error.message()),
        "--out");
  }
  print_json(it->second.run(args.options));
  return 0;
}

}  // namespace

void register_experiment_command(CLI::App& app, Action& action,
                                 const ExperimentRegistry& experiments) {
  auto args = std::make_shared<ExperimentArgs>();
  CLI::App* command = app.add_subcommand(
      "experiment", "Rerun a paper's experiment; writes its tables and figures into --out");
  command->add_option("name", args->name, "Experiment name (below)")->required();
  std::string names = "Experiments:\n";
  for (const auto& [name, experiment] : experiments)
    names += fmt::format("  {:<10} {}\n", name, experiment.description);
  command->footer(names);
  command->add_option("--out", args->options.out_dir, "Output directory")->capture_default_str();
  CLI::Option* seed = command->add_option("--seed", args->options.seed,
                                          "Random seed (default 1; balance: 2, docs/balance.md)");
  CLI::Option* instances =
      command->add_option("--instances", args->options.instances,
                          "Instances per configuration (>= 1; without it, as in the paper)");
  CLI::Option* seeds = command->add_option(
      "--seeds", args->options.seeds,
      "Random scenarios per cell of a simulated experiment (>= 1; without it, its default)");
  command->add_flag("--quick", args->options.quick,
                    "A reduced run of a simulated experiment (every scheme, fewer cells)");
  command->callback([&action, &experiments, args, instances, seeds, seed] {
    args->instances_given = instances->count() > 0;
    args->options.seed_given = seed->count() > 0;
    args->seeds_given = seeds->count() > 0;
    action = [&experiments, args] { return run_experiment(*args, experiments); };
  });
}

}  // namespace redist::cli
