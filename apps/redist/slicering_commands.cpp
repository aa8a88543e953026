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
  std::string format = "json";
  std::string gantt;
};

PlanCheckCommand slicering_command(const SliceOptions& o) {
  io::OrderedJson options = {{"algorithm", o.algorithm}};
  if (o.q_given) options["q"] = o.q;
  return {plan_with(slicering::plan_json, options), slicering::check_json, slicering_picture,
          "slicering"};
}

int run_plan(const SliceOptions& o) {
  return run_plan_command(slicering_command(o), o.instance, o.gantt, o.format);
}

int run_check(const SliceOptions& o) {
  require_distinct_inputs(o.instance, o.solution, "instance and solution");
  return run_check_command(slicering_command(o), o.instance, o.solution, o.gantt);
}

}  // namespace

void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<SliceOptions>();
  CLI::App* slice = app.add_subcommand(
      "slicering", "Static load balancing of iterative computations on a ring (SLICE)");
  slice->require_subcommand(1);

  CLI::App* plan = slice->add_subcommand("plan", "Choose a ring and shares; prints the solution");
  plan->add_option("instance", options->instance, "Cluster JSON file ('-' or none: stdin)");
  plan->add_option(
          "--algorithm,-a", options->algorithm,
          choices({{"auto",
                    "exact when p <= 16, else the better of greedy and tsp, with a lower "
                    "bound (the default)"},
                   {"homogeneous", "SLICE Proposition 1: optimal on homogeneous networks only"},
                   {"greedy", "SLICE §6.2: grows a ring one processor at a time"},
                   {"tsp", "SLICE §6.1: all processors, a short tour by local search"},
                   {"exact", "Held-Karp + branch and bound: proven optimum, p <= 20"}}))
      ->capture_default_str();
  plan->add_option("--q", options->q, "Force the ring size")->each([options](const std::string&) {
    options->q_given = true;
  });
  add_format_option(plan, options->format);
  add_example(plan,
              R"({"cluster": {"w": [1, 2, 4], "c": [[0, 0.1, 1], [0.1, 0, 0.1], [1, 0.1, 0]],)"
              R"( "W": 10, "H": 1}})",
              "redist slicering plan --format text data/slicering/small.json");
  plan->add_option("--gantt", options->gantt,
                   "Write a picture of the chosen ring to this SVG file");
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

  CLI::App* check = slice->add_subcommand("check", "Validate a solution against a cluster");
  check->add_option("instance", options->instance, "Cluster JSON file ('-': stdin)")->required();
  check->add_option("solution", options->solution, "Solution JSON file ('-': stdin)")->required();
  check->add_option("--gantt", options->gantt, "Write a picture of a valid solution's ring");
  check->callback([&action, options] { action = [options] { return run_check(*options); }; });

  experiments["slicering"] = [](const ExperimentOptions& o) {
    return experiments::run_slicering_experiment(o.out_dir, o.instances > 0);
  };
  experiments["slicering"].description =
      "SLICE Tables 5-6, Figure 3: greedy, TSP and exact rings (docs/slicering.md)";
}

}  // namespace redist::cli
