// `redist slicering plan|check` (docs/slicering.md) and `redist experiment slicering`
// (docs/README.md): thin adapters from JSON files to redist/slicering.hpp.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "experiments/slicering/slicering_experiment.hpp"
#include "redist/io/json.hpp"
#include "redist/slicering.hpp"

namespace redist::cli {

namespace {

struct SliceOptions {
  std::string instance = "-";
  std::string solution;
  std::string algorithm = "auto";
  std::int64_t q = 0;
  bool q_given = false;
};

int run_plan(const SliceOptions& o) {
  io::OrderedJson options = {{"algorithm", o.algorithm}};
  if (o.q_given) options["q"] = o.q;
  std::cout << slicering::plan_json(io::read_text(o.instance), options.dump());
  return 0;
}

int run_check(const SliceOptions& o) {
  require_distinct_inputs(o.instance, o.solution, "instance and solution");
  return print_check_text(
      slicering::check_json(io::read_text(o.instance), io::read_text(o.solution)));
}

}  // namespace

void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<SliceOptions>();
  CLI::App* slice = app.add_subcommand(
      "slicering", "Static load balancing of iterative computations on a ring (SLICE)");
  slice->require_subcommand(1);

  CLI::App* plan = slice->add_subcommand("plan", "Choose a ring and shares; prints the solution");
  plan->add_option("instance", options->instance, "Cluster JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm,
                   "auto (the default): exact when p <= 16, else the better of greedy and tsp, "
                   "with a lower bound\n"
                   "homogeneous: Proposition 1, optimal on homogeneous networks only\n"
                   "greedy: SLICE 6.2, grows a ring one processor at a time\n"
                   "tsp: SLICE 6.1, all processors, a shortest tour by local search\n"
                   "exact: Held-Karp + branch and bound, proven optimum, p <= 20")
      ->capture_default_str();
  plan->add_option("--q", options->q, "Force the ring size")->each([options](const std::string&) {
    options->q_given = true;
  });
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

  CLI::App* check = slice->add_subcommand("check", "Validate a solution against a cluster");
  check->add_option("instance", options->instance, "Cluster JSON file ('-': stdin)")->required();
  check->add_option("solution", options->solution, "Solution JSON file ('-': stdin)")->required();
  check->callback([&action, options] { action = [options] { return run_check(*options); }; });

  experiments["slicering"] = [](const ExperimentOptions& o) {
    return experiments::run_slicering_experiment(o.out_dir, o.instances > 0);
  };
  experiments["slicering"].description =
      "SLICE Tables 5-6, Figure 3: greedy, TSP and exact rings (docs/slicering.md)";
}

}  // namespace redist::cli
