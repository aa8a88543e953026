// `redist slicering plan|check` (SPEC §5) and `redist experiment slicering` (SPEC §6): thin
// adapters from JSON files to the core library.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "experiments/slicering/slicering_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"

namespace redist::cli {

namespace {

struct SliceOptions {
  std::string instance = "-";
  std::string solution;
  std::string algorithm = "greedy";
  std::int64_t q = 0;
  bool q_given = false;
};

int run_plan(const SliceOptions& o) {
  const slicering::Cluster cluster = io::read_cluster(io::read_document(o.instance));
  std::optional<std::size_t> q;
  if (o.q_given) {
    if (o.q < 1) throw InputError("ring size must be >= 1", "--q");
    q = static_cast<std::size_t>(o.q);
  }
  const slicering::Solution solution = slicering::plan_slicering(cluster, o.algorithm, q);
  print_json(io::write_slicering_solution(solution));
  return 0;
}

int run_check(const SliceOptions& o) {
  require_distinct_inputs(o.instance, o.solution, "instance and solution");
  const slicering::Cluster cluster = io::read_cluster(io::read_document(o.instance));
  const io::SolutionDocument doc = io::read_slicering_solution(io::read_document(o.solution));
  const slicering::CheckResult result = slicering::check_solution(
      cluster, doc.ring, doc.alpha, {doc.t_step, doc.makespan, doc.lower_bound, doc.optimal});
  return print_check_result(result.valid, result.t_step, result.reason);
}

}  // namespace

void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<SliceOptions>();
  CLI::App* slice = app.add_subcommand(
      "slicering", "Static load balancing of iterative computations on a ring (SLICE)");
  slice->require_subcommand(1);

  CLI::App* plan = slice->add_subcommand("plan", "Choose a ring and shares; prints the solution");
  plan->add_option("instance", options->instance, "Cluster JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, "homogeneous | greedy | tsp | exact")
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
}

}  // namespace redist::cli
