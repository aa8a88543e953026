// `redist lau plan|check|eval` (docs/lau.md) and the experiment `lau` (docs/README.md): thin
// adapters from JSON files to redist/lau.hpp.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/redist/cli.hpp"
#include "experiments/lau/lau_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/io/options.hpp"
#include "redist/lau.hpp"
#include "redist/svg/lau_steps.hpp"
#include "redist/text/lau_summary.hpp"

namespace redist::cli {

namespace {

struct LauOptions {
  std::string instance = "-";
  std::string algorithm = "optimal";
  std::string mode = "single";
  std::string format = "json";
  std::string gantt;
};

// `lau eval`: the document of the JSON entry point, or (--format text) the summary of the same
// evaluation.
int run_eval(const LauOptions& o) {
  const std::string text = read_input(o.instance, "instance");
  if (o.format != "text") {
    print_result(
        read_instance_as("lau", "eval", text, [](const auto& t) { return lau::eval_json(t); }));
    return 0;
  }
  const io::LauDocument doc = read_instance_as("lau", "eval", text, [](const auto& t) {
    return io::located_in("$.lau",
                          [&] { return io::read_lau_document(io::parse_document(t), true); });
  });
  const lau::Evaluation e = io::located_in("$.lau", [&] {
    return io::lau_flows_located("$.lau.flows",
                                 [&] { return lau::evaluate(doc.instance, doc.flows); });
  });
  print_result(text::lau_eval_summary(doc.instance, doc.flows, e, "redist lau eval"));
  return 0;
}

std::vector<std::string> names_of(const std::vector<lau::AlgorithmName>& table) {
  std::vector<std::string> names;
  for (const lau::AlgorithmName& n : table) names.push_back(n.name);
  return names;
}

}  // namespace

void register_lau_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<LauOptions>();
  CLI::App* lau = app.add_subcommand("lau", "Load distribution on rings (LAU)");
  lau->require_subcommand(1);

  CLI::App* plan = lau->add_subcommand("plan", "Plan a load distribution schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, choices(lau::algorithm_names()))
      ->capture_default_str();
  plan->add_option("--mode", options->mode, choices(lau::mode_names()))->capture_default_str();
  add_format_option(plan, options->format);
  add_example(plan, R"({"lau": {"loads": [14, 0, 3, 9, 0, 1, 8, 5]}}  (targets: the average))",
              "redist lau plan --format text data/examples/lau-ring.json");
  plan->add_option("--gantt", options->gantt, "Write the plan's step chart to this SVG file");
  plan->callback([&action, options] {
    action = [options] {
      return suggesting("--algorithm", options->algorithm, names_of(lau::algorithm_names()), [&] {
        return suggesting("--mode", options->mode, names_of(lau::mode_names()), [&] {
          const lau::PlanOptions plan_options = io::located_in("$.lau", [&] {
            return lau::PlanOptions{options->algorithm, lau::parse_mode(options->mode)};
          });
          return run_plan(family_plan_command<lau::Family>(plan_options), options->instance,
                          options->gantt, options->format);
        });
      });
    };
  });

  add_family_check_command<lau::Family>(
      lau, action,
      {"Validate a plan's flows against an instance", "Instance JSON file ('-': stdin)",
       "Plan JSON file, as `lau plan` prints ('-': stdin)",
       "Write the plan's step chart (an invalid plan's with the violation in red)"});

  CLI::App* eval = lau->add_subcommand("eval", "Execution times of given flows, both modes");
  eval->add_option("instance", options->instance, "Instance with flows ('-' or none: stdin)");
  add_format_option(eval, options->format);
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

REDIST_REGISTER_FAMILY_COMMANDS(lau, register_lau_commands);

}  // namespace redist::cli
