// `redist lau plan|eval` (SPEC §3) and the experiment `lau` (SPEC §6): thin adapters from JSON
// files to redist/lau.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "experiments/lau/lau_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/lau_json.hpp"
#include "redist/lau/evaluate.hpp"
#include "redist/lau/optimal.hpp"
#include "redist/lau/planner.hpp"

namespace redist::cli {

namespace {

struct LauOptions {
  std::string instance = "-";
  std::string algorithm = "optimal";
  std::string mode = "single";
};

io::OrderedJson time_json(const lau::Time& t) {
  return t ? io::OrderedJson(*t) : io::OrderedJson(nullptr);
}

// The core reports overflows of computed values (flows, traffic, times, h) at "flows" or "h";
// on the command line they are located at the input they come from.
template <typename F>
int located(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (e.path() == "flows" || e.path() == "h") throw InputError(e.message(), path);
    throw;
  }
}

int run_plan(const LauOptions& o) {
  const lau::Mode mode = lau::parse_mode(o.mode);
  const io::LauDocument doc = io::read_lau_document(io::read_document(o.instance), false);
  return located("$.lau.loads", [&] {
    const lau::Plan plan = lau::plan_lau(doc.instance, o.algorithm, mode);
    const lau::Plan best = o.algorithm == "optimal" ? plan : lau::plan_optimal(doc.instance, mode);
    const bool optimal = lau::time_in(plan, mode) == lau::time_in(best, mode);
    std::cout << io::lau_plan_json(plan, mode, optimal);
    return 0;
  });
}

int run_eval(const LauOptions& o) {
  const io::LauDocument doc = io::read_lau_document(io::read_document(o.instance), true);
  return located("$.lau.flows", [&] {
    const lau::Evaluation e = lau::evaluate_flows(doc.instance, doc.flows);
    io::OrderedJson out;
    out["t_single"] = time_json(e.t_single);
    out["t_multi"] = time_json(e.t_multi);
    out["t_multi_by"] = e.multi_by_simulation
                            ? "simulation"
                            : "closed form (the simulation would exceed its step budget)";
    out["traffic"] = e.traffic;
    out["h"] = e.h;
    print_json(out);
    return 0;
  });
}

}  // namespace

void register_lau_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<LauOptions>();
  CLI::App* lau = app.add_subcommand("lau", "Load distribution on rings (LAU)");
  lau->require_subcommand(1);

  CLI::App* plan = lau->add_subcommand("plan", "Plan a load distribution schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm,
                   "linear | traffic | optimal-window | optimal")
      ->capture_default_str();
  plan->add_option("--mode", options->mode, "single | multi (send mode to optimise)")
      ->capture_default_str();
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

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
}

}  // namespace redist::cli
