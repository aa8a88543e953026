#include "experiments/balance/balance_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "redist/balance.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

using balance::Drift;

constexpr double kRatios[] = {0.01, 0.03, 0.1, 0.3, 1, 3, 10};
constexpr Drift kDrifts[] = {Drift::steps, Drift::walk, Drift::transient};
constexpr std::size_t kFixedSchemes = 5;  // the first five of experiment_policies()

struct Cell {
  Drift drift;
  std::size_t processors;
  double ratio;
  std::vector<double> mean, worst;  // per policy: total / oracle
  std::vector<double> total;        // per policy: mean total time
  double oracle_total = 0.0;
};

Cell run_cell(Drift drift, std::size_t p, double ratio, std::size_t index,
              const BalanceExperimentOptions& o, Progress& progress) {
  const auto& policies = experiment_policies();
  Cell cell{drift,
            p,
            ratio,
            std::vector<double>(policies.size(), 0.0),
            std::vector<double>(policies.size(), 0.0),
            std::vector<double>(policies.size(), 0.0)};
  for (std::int64_t n = 0; n < o.instances; ++n) {
    balance::TraceSpec spec{drift, p, 100, 1000, ratio, balance_trace_seed(o.seed, index, n)};
    const balance::Trace trace = balance::random_trace(spec);
    const double oracle = balance::hindsight_optimum(trace).total_time;
    cell.oracle_total += oracle / static_cast<double>(o.instances);
    for (std::size_t k = 0; k < policies.size(); ++k) {
      const double total = balance::simulate(trace, policies[k]).total_time;
      cell.mean[k] += total / oracle / static_cast<double>(o.instances);
      cell.worst[k] = std::max(cell.worst[k], total / oracle);
      cell.total[k] += total / static_cast<double>(o.instances);
    }
    progress.advance();
  }
  return cell;
}

// RRV04's figure of a ring size (Figure 13: p = 8, Figure 14: p = 32), 0 for other sizes.
int rrv04_figure(std::size_t p) { return p == 8 ? 13 : p == 32 ? 14 : 0; }

std::string figure(const std::vector<Cell>& cells, Drift drift, std::size_t p) {
  svg::LinePlot plot;
  const int number = rrv04_figure(p);
  plot.title = fmt::format("{}total time over the hindsight optimum, {} drift, p = {}",
                           number ? fmt::format("RRV04 Figure {} setting: ", number) : "",
                           balance::to_string(drift), p);
  plot.caption =
      "RRV04 Figures 13-14 plot SimGrid times over those of the scheme without redistribution and "
      "print no values; here: redist's ring model, times over the hindsight optimum (1 = optimal).";
  plot.x_label = "computation-to-communication ratio";
  plot.y_label = "mean total time / oracle (axis cut at 2)";
  plot.log_x = true;
  const auto& policies = experiment_policies();
  for (std::size_t k = 0; k < policies.size(); ++k) {
    svg::Series s{policies[k], {}, {}, false, true};
    for (const Cell& c : cells) {
      if (c.drift != drift || c.processors != p) continue;
      s.x.push_back(c.ratio);
      s.y.push_back(c.mean[k]);
    }
    plot.series.push_back(std::move(s));
  }
  plot.y_max = 2.0;  // the policies worth comparing are below; the others leave through the top
  return svg::render_line_plot(plot);
}

// Per cell: the best fixed scheme's mean total against each later policy's.
Table versus_fixed(const std::vector<Cell>& cells, const std::string& provenance) {
  const auto& policies = experiment_policies();
  Table t;
  t.title = "Online policies against the best of RRV04's fixed schemes (mean total time ratio)";
  t.columns = {"drift", "p", "ratio", "best fixed scheme"};
  for (std::size_t k = kFixedSchemes; k < policies.size(); ++k) t.columns.push_back(policies[k]);
  for (const Cell& c : cells) {
    const auto best = std::min_element(c.total.begin(), c.total.begin() + kFixedSchemes);
    std::vector<nlohmann::ordered_json> row = {balance::to_string(c.drift), c.processors, c.ratio,
                                               policies[best - c.total.begin()]};
    for (std::size_t k = kFixedSchemes; k < policies.size(); ++k)
      row.push_back(std::round(c.total[k] / *best * 1e4) / 1e4);
    t.rows.push_back(std::move(row));
  }
  t.notes = {
      "Below 1: the policy beats the best fixed scheme chosen with hindsight for that regime.",
      provenance};
  return t;
}

Table versus_oracle(const std::vector<Cell>& cells, const std::string& provenance) {
  const auto& policies = experiment_policies();
  Table t;
  t.title = "Mean total time over the hindsight optimum (worst trace in parentheses)";
  t.columns = {"drift", "p", "ratio"};
  for (const std::string& name : policies) t.columns.push_back(name);
  for (const Cell& c : cells) {
    std::vector<nlohmann::ordered_json> row = {balance::to_string(c.drift), c.processors, c.ratio};
    for (std::size_t k = 0; k < policies.size(); ++k)
      row.push_back(fmt::format("{:.4f} ({:.3f})", c.mean[k], c.worst[k]));
    t.rows.push_back(std::move(row));
  }
  t.notes = {provenance};
  return t;
}

// Whether the traces of `seed` are held out, in one sentence for the tables.
std::string provenance(std::uint64_t seed) {
  if (seed == kBalanceTuningSeed)
    return fmt::format("Seed {}: the traces the online policies were tuned on (in-sample).", seed);
  return fmt::format("Seed {}: held-out traces (the online policies were tuned on seed {} only).",
                     seed, kBalanceTuningSeed);
}

}  // namespace

std::uint64_t balance_trace_seed(std::uint64_t seed, std::size_t cell, std::int64_t instance) {
  return seed * 1000003 + cell * 1009 + static_cast<std::uint64_t>(instance);
}

const std::vector<std::string>& experiment_policies() {
  static const std::vector<std::string> names = {
      "never",         "at:50",        "at:20,40,60,80", "every:10",       "every:5",
      "threshold:1.2", "cost-benefit", "period-rule",    "stable-horizon", "replay"};
  return names;
}

nlohmann::ordered_json run_balance_experiment(const BalanceExperimentOptions& o) {
  if (o.instances < 1 || o.instances > kBalanceExperimentMaxInstances)
    throw InputError(fmt::format("must be in 1..{}", kBalanceExperimentMaxInstances),
                     "--instances");
  std::vector<Cell> cells;
  std::size_t index = 0;
  Progress progress(
      "balance",
      static_cast<std::int64_t>(std::size(kDrifts) * o.processors.size() * std::size(kRatios)) *
          o.instances,
      "traces");
  for (Drift drift : kDrifts)
    for (std::size_t p : o.processors)
      for (double ratio : kRatios) cells.push_back(run_cell(drift, p, ratio, index++, o, progress));
  progress.finish();
  OutputDirectory out(o.out_dir);
  out.write_table("balance_vs_oracle", versus_oracle(cells, provenance(o.seed)));
  out.write_table("balance_vs_fixed", versus_fixed(cells, provenance(o.seed)));
  for (Drift drift : kDrifts)
    for (std::size_t p : o.processors)
      out.write_text(fmt::format("balance_{}_{}.svg", balance::to_string(drift), p),
                     figure(cells, drift, p));
  nlohmann::ordered_json results;
  results["tuning_seed"] = kBalanceTuningSeed;
  results["held_out"] = o.seed != kBalanceTuningSeed;
  const auto& policies = experiment_policies();
  for (std::size_t k = 0; k < policies.size(); ++k) {
    double mean = 0, worst_cell = 0;
    std::int64_t behind = 0;  // cells more than 2% behind the best fixed scheme
    for (const Cell& c : cells) {
      mean += c.mean[k] / static_cast<double>(cells.size());
      const double best = *std::min_element(c.total.begin(), c.total.begin() + kFixedSchemes);
      worst_cell = std::max(worst_cell, c.total[k] / best);
      behind += c.total[k] > 1.02 * best;
    }
    results["policies"][policies[k]] = {{"mean_over_oracle", mean},
                                        {"worst_cell_over_best_fixed", worst_cell},
                                        {"cells_over_2pct_behind_best_fixed", behind}};
  }
  return experiment_summary("balance", o.seed, o.instances, out, std::move(results));
}

}  // namespace redist::experiments
