// `redist slicering plan|check` (docs/slicering.md) and `redist experiment slicering`
// (docs/README.md): thin adapters from JSON files to redist/slicering.hpp. The cluster is read
// once and planned once; every output renders that one solution.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "experiments/slicering/slicering_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/options.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering.hpp"
#include "redist/svg/slicering_ring.hpp"
#include "redist/text/slicering_summary.hpp"

namespace redist::cli {

namespace {

struct SliceOptions {
  std::string instance = "-";
  std::string algorithm = "auto";
  std::int64_t q = 0;
  bool q_given = false;
  std::string format = "json";
  std::string gantt;
  double time_limit = 0;  // seconds; 0: none
};

int run_slicering_plan(const SliceOptions& o) {
  slicering::PlanOptions options{o.algorithm, std::nullopt, time_limit_of(o.time_limit)};
  if (o.q_given) {
    if (o.q < 1) throw io::located(OptionError("ring size must be >= 1", "q"), "$.cluster");
    options.ring_size = static_cast<std::size_t>(o.q);
  }
  return suggesting("--algorithm", o.algorithm, io::names_of(slicering::Family::algorithms()), [&] {
    return run_plan(family_plan_command<slicering::Family>(options), o.instance, o.gantt, o.format);
  });
}

}  // namespace

void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<SliceOptions>();
  CLI::App* slice = app.add_subcommand(
      "slicering", "Static load balancing of iterative computations on a ring (SLICE)");
  slice->require_subcommand(1);

  CLI::App* plan = slice->add_subcommand("plan", "Choose a ring and shares; prints the solution");
  plan->add_option("instance", options->instance, "Cluster JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, choices(slicering::Family::algorithms()))
      ->capture_default_str();
  plan->add_option("--q", options->q, "Force the ring size")->each([options](const std::string&) {
    options->q_given = true;
  });
  add_time_limit_option(plan, options->time_limit);
  add_format_option(plan, options->format);
  add_example(plan,
              R"({"cluster": {"w": [1, 2, 4], "c": [[0, 0.1, 1], [0.1, 0, 0.1], [1, 0.1, 0]],)"
              R"( "W": 10, "H": 1}})",
              "redist slicering plan --format text data/slicering/small.json");
  plan->add_option("--gantt", options->gantt,
                   "Write a picture of the chosen ring to this SVG file");
  plan->callback(
      [&action, options] { action = [options] { return run_slicering_plan(*options); }; });

  add_family_check_command<slicering::Family>(
      slice, action,
      {"Validate a solution against a cluster", "Cluster JSON file ('-': stdin)",
       "Solution JSON file ('-': stdin)",
       "Write a picture of the solution's ring (an invalid one's with the violation in red)"});

  experiments["slicering"] = [](const ExperimentOptions& o) {
    return experiments::run_slicering_experiment(o.out_dir, o.instances > 0);
  };
  experiments["slicering"].description =
      "SLICE Tables 5-6, Figure 3: greedy, TSP and exact rings (docs/slicering.md)";
}

REDIST_REGISTER_FAMILY_COMMANDS(slicering, register_slicering_commands);

}  // namespace redist::cli
