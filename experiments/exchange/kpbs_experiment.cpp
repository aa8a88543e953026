#include "experiments/exchange/kpbs_experiment.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "redist/exchange/bounds.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/steps.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

constexpr std::int64_t kSide = 20;  // senders and receivers
constexpr std::int64_t kMaxBytes = 20;
constexpr std::array<std::int64_t, 4> kTransfers{2, 5, 10, 20};
constexpr std::array<double, 7> kLatencies{0, 1, 2, 5, 10, 20, 50};
constexpr double kDensity = 0.5;
constexpr std::int64_t kEdgesTransfers = 5;
constexpr double kEdgesLatency = 5;
constexpr std::array<const char*, 5> kAlgorithms{"ggp", "oggp", "steps", "whole", "preemptive"};
constexpr std::size_t kAlgorithmCount = kAlgorithms.size();

struct Cell {
  std::int64_t transfers = kSide;
  double latency = 0, density = kDensity;
};

exchange::Instance random_bipartite(std::mt19937_64& rng, const Cell& cell) {
  exchange::Instance in;
  in.nodes = 2 * kSide;
  std::bernoulli_distribution edge(cell.density);
  std::uniform_int_distribution<std::int64_t> bytes(1, kMaxBytes);
  for (std::int64_t i = 0; i < kSide; ++i) {
    for (std::int64_t j = 0; j < kSide; ++j) {
      if (edge(rng)) in.messages.push_back({i, kSide + j, bytes(rng)});
    }
  }
  if (in.messages.empty()) in.messages.push_back({0, kSide, bytes(rng)});
  in.send_bandwidth.assign(in.nodes, 1.0);
  in.recv_bandwidth.assign(in.nodes, 1.0);
  in.latency = cell.latency;
  if (cell.transfers < kSide) {
    exchange::Backbone b;
    for (std::int64_t v = 0; v < 2 * kSide; ++v) b.clusters[v < kSide ? 0 : 1].push_back(v);
    b.transfers = cell.transfers;
    in.backbone = b;
  }
  return in;
}

// Ratios of one algorithm over a cell's instances.
struct Ratios {
  double eta_sum = 0, eta_max = 0, bound_sum = 0;
  std::int64_t count = 0;
  double eta_mean() const { return count == 0 ? NAN : eta_sum / static_cast<double>(count); }
  double bound_mean() const { return count == 0 ? NAN : bound_sum / static_cast<double>(count); }
};

struct CellResult {
  std::array<Ratios, kAlgorithmCount> ratios;
  double messages = 0;         // mean
  double guarantee = 0;        // max makespan / guarantee of ggp and oggp
  std::int64_t oggp_wins = 0;  // instances where oggp beats both whole and preemptive
};

double guarantee_of(const exchange::Instance& in, double eta) {
  return in.backbone ? 2 * (eta + in.latency) : 2 * eta;
}

void run_instance(const exchange::Instance& in, CellResult& r) {
  const double eta = exchange::step_bound(in).lower_bound;
  const double bound = exchange::bounds(in).lower_bound;
  std::array<double, kAlgorithmCount> makespan{};
  for (std::size_t a = 0; a < kAlgorithmCount; ++a) {
    makespan[a] = NAN;
    if (a == 4 && in.backbone) continue;  // preemptive: one-port instances only
    const exchange::Plan p = exchange::plan(in, kAlgorithms[a]);
    const CheckResult verdict = exchange::check(in, p);
    if (!verdict.valid) {
      throw std::logic_error(fmt::format("{} plan invalid: {}", kAlgorithms[a], verdict.reason));
    }
    makespan[a] = p.makespan;
    Ratios& x = r.ratios[a];
    x.eta_sum += p.makespan / eta;
    x.eta_max = std::max(x.eta_max, p.makespan / eta);
    x.bound_sum += p.makespan / bound;
    ++x.count;
    if (a < 2) r.guarantee = std::max(r.guarantee, p.makespan / guarantee_of(in, eta));
  }
  const double async = std::isnan(makespan[4]) ? makespan[3] : std::min(makespan[3], makespan[4]);
  if (makespan[1] < async) ++r.oggp_wins;
  r.messages += static_cast<double>(in.messages.size());
}

CellResult run_cell(const Cell& cell, std::uint64_t seed, std::int64_t instances,
                    Progress& progress) {
  std::mt19937_64 rng(seed);
  CellResult r;
  for (std::int64_t t = 0; t < instances; ++t) {
    run_instance(random_bipartite(rng, cell), r);
    progress.advance();
  }
  r.messages /= static_cast<double>(std::max<std::int64_t>(1, instances));
  return r;
}

nlohmann::ordered_json cell_value(double x) {
  return std::isnan(x) ? nlohmann::ordered_json(nullptr)
                       : nlohmann::ordered_json(std::round(x * 1e4) / 1e4);
}

std::vector<std::string> columns(std::vector<std::string> first) {
  for (const char* a : kAlgorithms) {
    first.push_back(fmt::format("{}/eta mean", a));
    first.push_back(fmt::format("{}/eta max", a));
    first.push_back(fmt::format("{}/bound mean", a));
  }
  first.push_back("ggp,oggp makespan/guarantee max");
  first.push_back("oggp beats whole, preemptive (%)");
  return first;
}

void add_row(Table& table, std::vector<nlohmann::ordered_json> cells, const CellResult& r,
             std::int64_t instances) {
  for (const Ratios& x : r.ratios) {
    cells.push_back(cell_value(x.eta_mean()));
    cells.push_back(cell_value(x.count == 0 ? NAN : x.eta_max));
    cells.push_back(cell_value(x.bound_mean()));
  }
  cells.push_back(cell_value(r.guarantee));
  cells.push_back(cell_value(100.0 * static_cast<double>(r.oggp_wins) /
                             static_cast<double>(std::max<std::int64_t>(1, instances))));
  table.rows.push_back(std::move(cells));
}

std::string figure(const std::string& title, const std::string& x_label,
                   const std::vector<double>& x, const std::vector<CellResult>& results) {
  svg::LinePlot plot;
  plot.title = title;
  plot.x_label = x_label;
  plot.y_label = "mean makespan / eta (step lower bound)";
  plot.caption =
      "20 senders x 20 receivers, bytes uniform in 1..20, unit bandwidths; eta = max(W, P/k) + "
      "beta max(Delta, ceil(m/k)) bounds step schedules only: whole and preemptive are piece "
      "schedules and may go below 1.";
  for (std::size_t a = 0; a < kAlgorithmCount; ++a) {
    svg::Series s;
    s.label = kAlgorithms[a];
    s.markers = true;
    for (std::size_t c = 0; c < results.size(); ++c) {
      if (results[c].ratios[a].count == 0) continue;
      s.x.push_back(x[c]);
      s.y.push_back(results[c].ratios[a].eta_mean());
    }
    if (!s.x.empty()) plot.series.push_back(std::move(s));
  }
  return svg::render_line_plot(plot);
}

Table sweep_header(std::int64_t instances) {
  Table t;
  t.title =
      "KPBS step algorithms on random 20 x 20 bipartite instances: makespan / eta and "
      "makespan / lower bound, by k and beta";
  t.columns = columns({"k", "beta", "messages (mean)"});
  t.notes.push_back(fmt::format(
      "{} instances per row, density {}, bytes uniform in 1..{}, unit bandwidths; k = 20: no "
      "backbone. ggp and oggp are proven within 2 (eta + beta) (2 eta without backbone).",
      instances, kDensity, kMaxBytes));
  return t;
}

}  // namespace

nlohmann::ordered_json run_kpbs_experiment(const KpbsExperimentOptions& o) {
  OutputDirectory out(o.out_dir);
  const std::int64_t cells = static_cast<std::int64_t>(kTransfers.size() * kLatencies.size()) + 10;
  Progress progress("exchange", cells * o.instances, "instances");
  Table sweep = sweep_header(o.instances);
  double guarantee = 0;
  std::uint64_t cell_seed = o.seed;
  for (const std::int64_t k : kTransfers) {
    std::vector<CellResult> results;
    for (const double beta : kLatencies) {
      results.push_back(run_cell({k, beta, kDensity}, cell_seed++, o.instances, progress));
      guarantee = std::max(guarantee, results.back().guarantee);
      add_row(sweep, {k, beta, cell_value(results.back().messages)}, results.back(), o.instances);
    }
    out.write_text(fmt::format("kpbs_k{}.svg", k),
                   figure(fmt::format("KPBS: makespan over the step bound eta, k = {}{}", k,
                                      k == kSide ? " (no backbone)" : ""),
                          "beta (latency per step, seconds)",
                          {kLatencies.begin(), kLatencies.end()}, results));
  }
  Table edges;
  edges.title =
      fmt::format("KPBS by number of messages: k = {}, beta = {}", kEdgesTransfers, kEdgesLatency);
  edges.columns = columns({"density", "messages (mean)"});
  std::vector<CellResult> results;
  std::vector<double> x;
  for (int d = 1; d <= 10; ++d) {
    const double density = d / 10.0;
    results.push_back(
        run_cell({kEdgesTransfers, kEdgesLatency, density}, cell_seed++, o.instances, progress));
    guarantee = std::max(guarantee, results.back().guarantee);
    x.push_back(results.back().messages);
    add_row(edges, {density, cell_value(results.back().messages)}, results.back(), o.instances);
  }
  progress.finish();
  out.write_text("kpbs_edges.svg",
                 figure(fmt::format("KPBS: makespan over the step bound eta, k = {}, beta = {}",
                                    kEdgesTransfers, kEdgesLatency),
                        "messages (mean over the instances of a density)", x, results));
  out.write_table("kpbs", sweep);
  out.write_table("kpbs_edges", edges);
  return experiment_summary("exchange", o.seed, o.instances, out,
                            {{"kpbs", rows_as_objects(sweep)},
                             {"kpbs_edges", rows_as_objects(edges)},
                             {"guarantee", cell_value(guarantee)}});
}

}  // namespace redist::experiments
