// `redist balance advise|simulate` (docs/balance.md), `redist experiment balance` and `redist
// experiment ring-sim` (RRV04 §8 in SimGrid, which runs redist-ring-sim): thin adapters from JSON
// files to redist/balance.hpp.
#include <algorithm>
#include <cmath>
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

// The totals of the plot's title, all with the same number of decimals: about 4 significant
// digits of the total.
std::string simulation_title(const balance::SimulationResult& r) {
  const double largest = std::max({r.total_time, r.lower_bound, 1e-300});
  const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(largest))), 0, 6);
  const auto n = [decimals](double x) { return fmt::format("{:.{}f}", x, decimals); };
  return fmt::format(
      "{}: total {} = compute {} + {} redistribution{} {}; lower bound {} (time units)", r.policy,
      n(r.total_time), n(r.compute_time), r.rebalances.size(), r.rebalances.size() == 1 ? "" : "s",
      n(r.redistribution_time), n(r.lower_bound));
}

// Iteration times of a simulated run, the per-iteration lower bound, the rebalance points and
// the cost of each redistribution.
std::string simulation_plot(const balance::Trace& trace, const balance::SimulationResult& r) {
  svg::LinePlot plot;
  plot.title = simulation_title(r);
  plot.x_label = "iteration";
  plot.y_label = "time (time units of the trace's speeds)";
  svg::Series times{"iteration time", {}, {}, false, false};
  svg::Series bound{"bound: N / sum of speeds", {}, {}, false, false};
  for (std::size_t t = 0; t < r.iteration_times.size(); ++t) {
    times.x.push_back(static_cast<double>(t + 1));
    times.y.push_back(r.iteration_times[t]);
    bound.x.push_back(static_cast<double>(t + 1));
    bound.y.push_back(balance::balanced_time_bound(trace.items(), trace.speeds[t]));
  }
  svg::Series points{"rebalance after iteration k", {}, {}, false, true, false};
  svg::Series costs{"its redistribution's cost", {}, {}, false, true, false,
                    svg::MarkerShape::diamond};
  for (const balance::Rebalance& b : r.rebalances) {
    points.x.push_back(static_cast<double>(b.after_iteration));
    points.y.push_back(r.iteration_times[static_cast<std::size_t>(b.after_iteration - 1)]);
    costs.x.push_back(static_cast<double>(b.after_iteration));
    costs.y.push_back(b.makespan);
  }
  plot.caption =
      "Total: the iteration times plus the redistributions' costs (their makespans in the ring "
      "model, drawn as diamonds at the iteration they follow). Lower bound: the sum of the "
      "per-iteration bounds.";
  plot.series = {times, bound, points, costs};
  return svg::render_line_plot(plot);
}

// `balance advise`: the advice (read once, planned once), its summary or JSON document, and with
// --gantt the chart of the planned redistribution.
int run_advise(const BalanceOptions& o) {
  const std::string text = read_input(o.instance, "instance");
  const balance::AdviseInput in = read_instance_as("balance", "advise", text, [](const auto& t) {
    return io::located_in("$.balance",
                          [&] { return io::read_advise_instance(io::parse_document(t)); });
  });
  return io::located_in("$.balance", [&] {
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
      print_result(text::advise_summary(in, advice, ring::check(moved, advice.schedule),
                                        "redist balance advise", ""));
    } else {
      print_json(io::write_advice(advice));
    }
    return 0;
  });
}

// `balance simulate`: the run of the trace under the policy, its document, and with --plot its
// iteration times.
int run_simulate(const BalanceOptions& o) {
  const std::string text = read_input(o.instance, "trace");
  const balance::Trace trace = read_instance_as("balance", "simulate", text, [](const auto& t) {
    return io::located_in("$.balance",
                          [&] { return io::read_balance_trace(io::parse_document(t)); });
  });
  return io::located_in("$.balance", [&] {
    // the iteration times, their bound and at most as many rebalance points
    if (!o.plot.empty()) svg::require_line_plot_size(3 * trace.speeds.size(), "plot");
    const balance::SimulationResult result = balance::simulate(trace, o.policy);
    if (!o.plot.empty()) write_text_file(o.plot, simulation_plot(trace, result), "--plot");
    if (o.format == "text") {
      print_result(text::simulation_summary(result, "redist balance simulate"));
    } else {
      print_json(io::write_simulation(result));
    }
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
  add_format_option(simulate, options->format);
  simulate->callback([&action, options] {
    action = [options] {
      return suggesting("--policy", options->policy, balance::policy_names(),
                        [&] { return run_simulate(*options); });
    };
  });

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
