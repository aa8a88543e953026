#include "experiments/ring_sim/ring_sim_experiment.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "experiments/ring_sim/subprocess.hpp"
#include "redist/common/error.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::int64_t> kRingSizes = {8, 32};
// The paper's 1..10, and below it ratios where a redistribution costs 3 to 100 iterations.
const std::vector<double> kRatios = {0.01, 0.03, 0.1, 0.3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
const std::vector<double> kQuickRatios = {0.01, 0.1, 1, 10};
const std::vector<std::string> kSchemes = {"never",   "at:50",        "at:20,40,60,80", "every:10",
                                           "every:5", "cost-benefit", "replay",         "oracle"};

struct Job {
  std::int64_t processors = 0;
  std::uint64_t seed = 0;
  std::string mode;
  Json result;  // redist-ring-sim's output
};

std::vector<std::string> command(const std::string& program, const Job& job,
                                 const std::vector<double>& ratios) {
  std::vector<std::string> argv = {program,
                                   "--processors",
                                   std::to_string(job.processors),
                                   "--seed",
                                   std::to_string(job.seed),
                                   "--mode",
                                   job.mode,
                                   "--ratios"};
  for (double r : ratios) argv.push_back(fmt::format("{}", r));
  argv.push_back("--schemes");
  for (const std::string& s : kSchemes) argv.push_back(s);
  return argv;
}

// Runs every job, `jobs` at a time, with progress on standard error.
void run_jobs(std::vector<Job>& all, const std::string& program, const std::vector<double>& ratios,
              unsigned jobs) {
  std::atomic<std::size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  std::mutex lock;
  std::size_t done = 0;
  std::string failure;
  const auto worker = [&] {
    for (std::size_t i = next++; i < all.size(); i = next++) {
      Job& job = all[i];
      const ProgramResult r = run_program(command(program, job, ratios));
      const std::lock_guard<std::mutex> guard(lock);
      if (r.exit_code != 0) {
        if (failure.empty())
          failure = fmt::format("redist-ring-sim failed on p = {}, seed {}, mode {}: {}",
                                job.processors, job.seed, job.mode, one_line(r.err, 300));
        continue;
      }
      job.result = Json::parse(r.out);
      std::fprintf(stderr, "ring-sim: %zu/%zu scenarios, %.0f s (p = %lld, seed %llu, %s)\n",
                   ++done, all.size(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                   static_cast<long long>(job.processors),
                   static_cast<unsigned long long>(job.seed), job.mode.c_str());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, jobs); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);
}

// Mean over the scenarios of one mode and ring size of total(scheme) / total(reference), per
// ratio.
std::vector<double> mean_ratio(const std::vector<Job>& jobs, const std::string& mode,
                               std::int64_t p, const std::string& scheme,
                               const std::string& reference, const std::vector<double>& ratios) {
  std::vector<double> mean(ratios.size(), 0.0);
  double count = 0;
  for (const Job& job : jobs) {
    if (job.mode != mode || job.processors != p) continue;
    std::map<std::pair<double, std::string>, double> total;
    for (const Json& run : job.result["runs"])
      total[{run["ratio"].get<double>(), run["scheme"].get<std::string>()}] = run["total_time"];
    ++count;
    for (std::size_t k = 0; k < ratios.size(); ++k) {
      const double ratio = total.at({ratios[k], scheme}) / total.at({ratios[k], reference});
      mean[k] += (ratio - mean[k]) / count;
    }
  }
  return mean;
}

// Median, maximum and minimum of the simulated durations of a mode's redistributions over their
// planned makespans, and the sum of the simulated durations over that of the makespans.
Json redistribution_stats(const std::vector<Job>& jobs, const std::string& mode) {
  std::vector<double> ratios;
  double planned = 0, simulated = 0;
  for (const Job& job : jobs) {
    if (job.mode != mode) continue;
    for (const Json& run : job.result["runs"])
      for (const Json& r : run["rebalances"]) {
        if (!(r["planned"].get<double>() > 0)) continue;
        ratios.push_back(r["simulated"].get<double>() / r["planned"].get<double>());
        planned += r["planned"].get<double>();
        simulated += r["simulated"].get<double>();
      }
  }
  if (ratios.empty()) return {{"redistributions", 0}};
  std::sort(ratios.begin(), ratios.end());
  return {{"redistributions", ratios.size()},
          {"median", ratios[ratios.size() / 2]},
          {"max", ratios.back()},
          {"min", ratios.front()},
          {"overall", simulated / planned}};
}

// Runs where some scheme's total is below the oracle's (by more than 1e-9 relative).
Json oracle_check(const std::vector<Job>& jobs) {
  std::size_t runs = 0, below = 0;
  double worst = 0.0;
  for (const Job& job : jobs) {
    std::map<double, double> oracle;
    for (const Json& run : job.result["runs"])
      if (run["scheme"] == "oracle") oracle[run["ratio"].get<double>()] = run["total_time"];
    for (const Json& run : job.result["runs"]) {
      ++runs;
      const double gap = 1.0 - run["total_time"].get<double>() / oracle.at(run["ratio"]);
      if (gap > 1e-9) ++below;
      worst = std::max(worst, gap);
    }
  }
  return {{"runs", runs}, {"runs_below_oracle", below}, {"largest_shortfall", worst}};
}

std::string figure(const Json& normalized, std::int64_t p, const std::vector<double>& ratios,
                   int number) {
  svg::LinePlot plot;
  plot.title = fmt::format(
      "RRV04 Figure {}: normalized execution time, ring of {} processors (Tiers-like platform)",
      number, p);
  plot.caption = "RRV04 prints no values for this figure, so no published point is drawn.";
  plot.x_label = "computation-to-communication ratio (iteration / redistribution)";
  plot.y_label = "mean total time / time without redistribution (axis cut at 2)";
  for (const std::string& scheme : kSchemes) {
    svg::Series s{scheme, ratios, normalized[scheme][std::to_string(p)].get<std::vector<double>>(),
                  false, true};
    plot.series.push_back(std::move(s));
  }
  plot.log_x = true;
  plot.y_max = 2.0;  // the schemes worth comparing are below; the others leave through the top
  return svg::render_line_plot(plot);
}

Table ratio_table(const std::string& title, const Json& values, const std::vector<double>& ratios,
                  const std::string& note) {
  Table t;
  t.title = title;
  t.columns = {"p", "ratio"};
  for (const std::string& s : kSchemes) t.columns.push_back(s);
  for (std::int64_t p : kRingSizes) {
    for (std::size_t k = 0; k < ratios.size(); ++k) {
      std::vector<Json> row = {p, ratios[k]};
      for (const std::string& s : kSchemes)
        row.push_back(std::round(values[s][std::to_string(p)][k].get<double>() * 1e4) / 1e4);
      t.rows.push_back(std::move(row));
    }
  }
  t.notes = {note};
  return t;
}

Json per_scheme(const std::vector<Job>& jobs, const std::string& reference,
                const std::vector<double>& ratios) {
  Json out;
  for (const std::string& scheme : kSchemes)
    for (std::int64_t p : kRingSizes)
      out[scheme][std::to_string(p)] = mean_ratio(jobs, "tiers", p, scheme, reference, ratios);
  return out;
}

std::string find_program(const RingSimExperimentOptions& o) {
  const std::string program =
      o.program.empty() ? executable_directory() + "/redist-ring-sim" : o.program;
  if (!std::filesystem::exists(program))
    throw InputError(fmt::format("{} not found (it is built when SimGrid is found)", program),
                     "ring-sim");
  return program;
}

}  // namespace

Json run_ring_sim_experiment(const RingSimExperimentOptions& o) {
  const std::int64_t seeds = o.seeds > 0 ? o.seeds : o.quick ? 2 : 20;
  if (seeds > kRingSimMaxSeeds)
    throw InputError(fmt::format("must be in 1..{}", kRingSimMaxSeeds), "--seeds");
  const std::string program = find_program(o);
  const std::vector<double> ratios = o.quick ? kQuickRatios : kRatios;
  std::vector<Job> jobs;
  for (const char* mode : {"tiers", "model"})
    for (std::int64_t p : kRingSizes)
      for (std::int64_t j = 0; j < seeds; ++j)
        jobs.push_back({p, o.seed * 1000 + static_cast<std::uint64_t>(j), mode, {}});
  run_jobs(jobs, program, ratios,
           o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency()));

  const Json normalized = per_scheme(jobs, "never", ratios);
  const Json over_oracle = per_scheme(jobs, "oracle", ratios);
  OutputDirectory out(o.out_dir);
  out.write_table("ring_sim_normalized",
                  ratio_table("Mean total time over the time without redistribution (Tiers routes)",
                              normalized, ratios, "Figures 13 (p = 8) and 14 (p = 32)."));
  out.write_table(
      "ring_sim_vs_oracle",
      ratio_table("Mean total time over the hindsight optimum's (Tiers routes)", over_oracle,
                  ratios, "oracle: the best rebalance points for the simulated durations."));
  out.write_text("ring_sim_figure13.svg", figure(normalized, 8, ratios, 13));
  out.write_text("ring_sim_figure14.svg", figure(normalized, 32, ratios, 14));

  Json results;
  results["ring_sizes"] = kRingSizes;
  results["ratios"] = ratios;
  results["schemes"] = kSchemes;
  results["normalized_time"] = normalized;
  results["time_over_oracle"] = over_oracle;
  results["redistribution_vs_model"] = redistribution_stats(jobs, "model");
  results["redistribution_vs_model_tiers"] = redistribution_stats(jobs, "tiers");
  results["oracle_check"] = oracle_check(jobs);
  Json summary = experiment_summary("ring-sim", o.seed, seeds, out, std::move(results));
  Json written = summary;
  written.erase("files");
  out.write_text("summary.json", written.dump(1) + "\n");
  summary["files"] = out.files();
  return summary;
}

}  // namespace redist::experiments
