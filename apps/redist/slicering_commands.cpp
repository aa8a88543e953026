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
  std::string solution;
  std::string algorithm = "auto";
  std::int64_t q = 0;
  bool q_given = false;
  std::string format = "json";
  std::string gantt;
  double time_limit = 0;  // seconds; 0: none
};

slicering::Cluster read_slicering_cluster(const std::string& text) {
  return io::located_in("$.cluster", [&] { return io::read_cluster(io::parse_document(text)); });
}

CheckCommand<slicering::Cluster, io::SolutionDocument> slicering_check_command() {
  CheckCommand<slicering::Cluster, io::SolutionDocument> command;
  command.family = "slicering";
  command.read = read_slicering_cluster;
  command.read_schedule = [](const std::string& text) {
    return io::located_in("$.cluster",
                          [&] { return io::read_slicering_solution(io::parse_document(text)); });
  };
  command.check = [](const slicering::Cluster& cluster, const io::SolutionDocument& document) {
    return slicering::check(cluster, document.ring, document.alpha, document.claims);
  };
  command.chart_limits = [](const slicering::Cluster& cluster,
                            const io::SolutionDocument& document) {
    svg::require_ring_picture_size(cluster.size(), document.ring.size());
  };
  command.chart = [](const slicering::Cluster& cluster, const io::SolutionDocument& document,
                     const std::string& title) {
    return svg::slicering_ring_svg(cluster, io::solution_of(document), title);
  };
  command.invalid_chart = [](const slicering::Cluster& cluster,
                             const io::SolutionDocument& document, const std::string& title,
                             const CheckResult& verdict) {
    const svg::Conflict conflict{verdict.reason, verdict.entries};
    return svg::slicering_ring_svg(cluster, io::solution_of(document), title, &conflict);
  };
  return command;
}

int run_slicering_plan(const SliceOptions& o) {
  slicering::PlanOptions options{o.algorithm, std::nullopt, time_limit_of(o.time_limit)};
  if (o.q_given) {
    if (o.q < 1) throw io::located(OptionError("ring size must be >= 1", "q"), "$.cluster");
    options.ring_size = static_cast<std::size_t>(o.q);
  }
  std::vector<std::string> algorithms;
  for (const auto& [name, description] : slicering::slicering_algorithm_names())
    algorithms.push_back(name);
  return suggesting("--algorithm", o.algorithm, algorithms, [&] {
    return run_plan(family_plan_command<slicering::Family>(options), o.instance, o.gantt, o.format);
  });
}

int run_slicering_check(const SliceOptions& o) {
  require_distinct_inputs(o.instance, o.solution, "instance and solution");
  return run_check(slicering_check_command(), o.instance, o.solution, o.gantt, o.format);
}

// The help of --algorithm: the planner's table of names.
std::string slicering_algorithm_help() {
  std::string text = "one of:";
  for (const auto& [name, description] : slicering::slicering_algorithm_names()) {
    text += "\n      " + name + ": " + description;
  }
  return text;
}

}  // namespace

void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<SliceOptions>();
  CLI::App* slice = app.add_subcommand(
      "slicering", "Static load balancing of iterative computations on a ring (SLICE)");
  slice->require_subcommand(1);

  CLI::App* plan = slice->add_subcommand("plan", "Choose a ring and shares; prints the solution");
  plan->add_option("instance", options->instance, "Cluster JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, slicering_algorithm_help())
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

  CLI::App* check = slice->add_subcommand("check", "Validate a solution against a cluster");
  check->add_option("instance", options->instance, "Cluster JSON file ('-': stdin)")->required();
  check->add_option("solution", options->solution, "Solution JSON file ('-': stdin)")->required();
  check->add_option(
      "--gantt", options->gantt,
      "Write a picture of the solution's ring (an invalid one's with the violation in red)");
  add_format_option(check, options->format);
  check->callback(
      [&action, options] { action = [options] { return run_slicering_check(*options); }; });

  experiments["slicering"] = [](const ExperimentOptions& o) {
    return experiments::run_slicering_experiment(o.out_dir, o.instances > 0);
  };
  experiments["slicering"].description =
      "SLICE Tables 5-6, Figure 3: greedy, TSP and exact rings (docs/slicering.md)";
}

REDIST_REGISTER_FAMILY_COMMANDS(slicering, register_slicering_commands);

}  // namespace redist::cli
