// `redist balance advise|simulate` (docs/balance.md), `redist experiment balance` and `redist
// experiment ring-sim` (RRV04 §8 in SimGrid, which runs redist-ring-sim): thin adapters from JSON
// files to redist/balance.hpp.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "experiments/balance/balance_experiment.hpp"
#include "experiments/particles/particles_experiment.hpp"
#include "experiments/ring_sim/ring_sim_experiment.hpp"
#include "redist/balance.hpp"
#include "redist/io/balance_json.hpp"
#include "redist/io/options.hpp"
#include "redist/ring.hpp"
#include "redist/svg/line_plot.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/text/balance_summary.hpp"

namespace redist::cli {
namespace {

struct BalanceOptions {
  std::string instance = "-";
  std::string policy;
  std::string gantt;
  std::string plot;
  std::string format = "json";
};

// Iteration times of a simulated run, the per-iteration lower bound and the rebalance points.
std::string simulation_plot(const balance::Trace& trace, const balance::SimulationResult& r) {
  svg::LinePlot plot;
  plot.title = fmt::format("{}: total {:.6g} (compute {:.6g} + redistributions {:.6g})", r.policy,
                           r.total_time, r.compute_time, r.redistribution_time);
  plot.x_label = "iteration";
  plot.y_label = "time";
  svg::Series times{"iteration time", {}, {}, false, false};
  svg::Series bound{"N / sum of speeds (bound)", {}, {}, false, false};
  for (std::size_t t = 0; t < r.iteration_times.size(); ++t) {
    times.x.push_back(static_cast<double>(t + 1));
    times.y.push_back(r.iteration_times[t]);
    bound.x.push_back(static_cast<double>(t + 1));
    bound.y.push_back(balance::balanced_time_bound(trace.items(), trace.speeds[t]));
  }
  svg::Series points{"rebalance (after iteration k)", {}, {}, false, true, false};
  for (const balance::Rebalance& b : r.rebalances) {
    points.x.push_back(static_cast<double>(b.after_iteration));
    points.y.push_back(r.iteration_times[static_cast<std::size_t>(b.after_iteration - 1)]);
  }
  plot.series = {times, bound, points};
  return svg::render_line_plot(plot);
}

// `balance advise`: the advice (read once, planned once), its summary or JSON document, and with
// --gantt the chart of the planned redistribution.
int run_advise(const BalanceOptions& o) {
  const std::string text = io::read_text(o.instance);
  return io::located_in("$.balance", [&] {
    const balance::AdviseInput in = io::read_advise_instance(io::parse_document(text));
    if (!o.gantt.empty()) svg::require_gantt_size(in.loads.size(), 0, "gantt");
    const balance::Advice advice = balance::advise(in);
    const ring::Instance moved =
        balance::redistribution_instance(in.ring, in.loads, advice.targets);
    if (!o.gantt.empty()) {
      svg::require_gantt_size(in.loads.size(), advice.schedule.transfers.size(), "gantt");
      write_text_file(o.gantt, svg::ring_gantt_svg(moved, advice.schedule, "redist balance advise"),
                      "--gantt");
    }
    if (o.format == "text") {
      std::cout << text::advise_summary(in, advice, ring::check(moved, advice.schedule),
                                        "redist balance advise", "");
    } else {
      print_json(io::write_advice(advice));
    }
    return 0;
  });
}

// `balance simulate`: the run of the trace under the policy, its document, and with --plot its
// iteration times.
int run_simulate(const BalanceOptions& o) {
  const std::string text = io::read_text(o.instance);
  return io::located_in("$.balance", [&] {
    const balance::Trace trace = io::read_balance_trace(io::parse_document(text));
    // the iteration times, their bound and at most as many rebalance points
    if (!o.plot.empty()) svg::require_line_plot_size(3 * trace.speeds.size(), "plot");
    const balance::SimulationResult result = balance::simulate(trace, o.policy);
    if (!o.plot.empty()) write_text_file(o.plot, simulation_plot(trace, result), "--plot");
    print_json(io::write_simulation(result));
    return 0;
  });
}

std::string policy_help() {
  std::string names;
  for (const std::string& n : balance::policy_names()) names += (names.empty() ? "" : " | ") + n;
  return "Rebalancing policy: " + names + " (docs/balance.md)";
}

}  // namespace

void register_balance_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<BalanceOptions>();
  CLI::App* family =
      app.add_subcommand("balance", "Rebalancing an iterative application on a ring");
  family->require_subcommand(1);

  CLI::App* advise = family->add_subcommand(
      "advise", "Should the application rebalance now? (cost-benefit with the planned makespan)");
  advise->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  advise->add_option("--gantt", options->gantt, "Draw the planned redistribution (SVG)");
  add_format_option(advise, options->format);
  add_example(advise,
              R"({"balance": {"ring": {"bidirectional": true, "cost_next": [1, 1, 1],)"
              R"( "cost_prev": [1, 1, 1]},)"
              "\n              "
              R"("loads": [90, 5, 5], "speeds": [1, 2, 1], "remaining_iterations": 50}})",
              "redist balance advise --format text data/balance/advise-8.json");
  advise->callback([&action, options] { action = [options] { return run_advise(*options); }; });

  CLI::App* simulate =
      family->add_subcommand("simulate", "Run a trace of speeds under a policy (model simulator)");
  simulate->add_option("instance", options->instance, "Trace JSON file ('-' or none: stdin)");
  simulate->add_option("--policy", options->policy, policy_help())->required();
  simulate->add_option("--plot", options->plot, "Plot the iteration times (SVG)");
  simulate->callback([&action, options] { action = [options] { return run_simulate(*options); }; });

  experiments["balance"] = [](const ExperimentOptions& o) {
    experiments::BalanceExperimentOptions e;
    e.out_dir = o.out_dir;
    if (o.seed_given) e.seed = o.seed;  // else the reporting seed, which no tuning used
    if (o.instances > 0) e.instances = o.instances;
    return experiments::run_balance_experiment(e);
  };
  experiments["balance"].description =
      "policies against the hindsight optimum on drifting speeds (docs/balance.md)";

  experiments["ring-sim"] = Experiment(
      [](const ExperimentOptions& o) {
        experiments::RingSimExperimentOptions e;
        e.out_dir = o.out_dir;
        e.seed = o.seed;
        e.seeds = o.seeds;
        e.quick = o.quick;
        return experiments::run_ring_sim_experiment(e);
      },
      true);
  experiments["ring-sim"].description =
      "RRV04 Figures 13-14 in SimGrid: the schemes on a Tiers-like platform (docs/ring-sim.md)";

  experiments["particles"] = Experiment(
      [](const ExperimentOptions& o) {
        experiments::ParticlesExperimentOptions e;
        e.out_dir = o.out_dir;
        e.seed = o.seed;
        e.seeds = o.seeds;
        e.quick = o.quick;
        return experiments::run_particles_experiment(e);
      },
      true);
  experiments["particles"].description =
      "when a Zoltan-partitioned particle code should rebalance: every policy against the "
      "hindsight optimum, migrations in SimGrid (docs/zoltan.md; runs mpirun)";
}

}  // namespace redist::cli
