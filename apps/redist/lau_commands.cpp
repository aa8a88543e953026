// `redist lau plan|eval` (docs/lau.md) and the experiment `lau` (docs/README.md): thin adapters
// from JSON files to redist/lau.hpp.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "experiments/lau/lau_experiment.hpp"
#include "redist/io/json.hpp"
#include "redist/lau.hpp"

namespace redist::cli {

namespace {

struct LauOptions {
  std::string instance = "-";
  std::string schedule;
  std::string algorithm = "optimal";
  std::string mode = "single";
  std::string format = "json";
  std::string gantt;
};

PlanCheckCommand lau_command(const LauOptions& o) {
  const io::OrderedJson options = {{"algorithm", o.algorithm}, {"mode", o.mode}};
  return {plan_with(lau::plan_json, options), lau::check_json, lau_picture, "lau"};
}

int run_plan(const LauOptions& o) {
  return run_plan_command(lau_command(o), o.instance, o.gantt, o.format);
}

int run_check(const LauOptions& o) {
  require_distinct_inputs(o.instance, o.schedule, "instance and plan");
  return run_check_command(lau_command(o), o.instance, o.schedule, o.gantt);
}

int run_eval(const LauOptions& o) {
  std::cout << lau::eval_json(io::read_text(o.instance));
  return 0;
}

}  // namespace

void register_lau_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<LauOptions>();
  CLI::App* lau = app.add_subcommand("lau", "Load distribution on rings (LAU)");
  lau->require_subcommand(1);

  CLI::App* plan = lau->add_subcommand("plan", "Plan a load distribution schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option(
          "--algorithm,-a", options->algorithm,
          choices(
              {{"optimal", "the least time in the mode over every valid schedule (the default)"},
               {"linear", "LAU §4, Figure 6: prefix sums, some flow is 0"},
               {"traffic", "LAU §4, Lemma 3: the least total traffic"},
               {"optimal-window", "LAU §5, Figure 9 as published (not always optimal)"}}))
      ->capture_default_str();
  plan->add_option("--mode", options->mode,
                   choices({{"single", "a node sends each neighbour one message (the default)"},
                            {"multi", "a node forwards load as soon as it receives it"}}))
      ->capture_default_str();
  add_format_option(plan, options->format);
  add_example(plan, R"({"lau": {"loads": [14, 0, 3, 9, 0, 1, 8, 5]}}  (targets: the average))",
              "redist lau plan --format text data/examples/lau-ring.json");
  plan->add_option("--gantt", options->gantt, "Write the plan's step chart to this SVG file");
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

  CLI::App* check = lau->add_subcommand("check", "Validate a plan's flows against an instance");
  check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")->required();
  check->add_option("plan", options->schedule, "Plan JSON file, as `lau plan` prints ('-': stdin)")
      ->required();
  check->add_option("--gantt", options->gantt, "Write the step chart of a valid plan");
  check->callback([&action, options] { action = [options] { return run_check(*options); }; });

  CLI::App* eval = lau->add_subcommand("eval", "Execution times of given flows, both modes");
  eval->add_option("instance", options->instance, "Instance with flows ('-' or none: stdin)");
  eval->callback([&action, options] { action = [options] { return run_eval(*options); }; });

  experiments["lau"] = [](const ExperimentOptions& o) {
    experiments::LauExperimentOptions e;
    e.out_dir = o.out_dir;
    e.seed = o.seed;
    if (o.instances > 0) e.instances = o.instances;
    return experiments::run_lau_experiment(e);
  };
  experiments["lau"].description =
      "LAU Tables 1-4: Linear, Traffic and optimal schedules, both send modes (docs/lau.md)";
}

}  // namespace redist::cli
