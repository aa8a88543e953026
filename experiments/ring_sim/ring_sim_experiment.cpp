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
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "experiments/ring_sim/subprocess.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

using Json = nlohmann::ordered_json;

const std::vector<std::int64_t> kRingSizes = {8, 32};
// The paper's axis: average redistribution / iteration, RRV04's 1..10.
const std::vector<double> kPaperRatios = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
const std::vector<double> kQuickPaperRatios = {1, 10};
// The reference axis: iteration / T_ref, from T_ref = 100 iterations to T_ref = 0.1 iteration.
const std::vector<double> kWideRatios = {0.01, 0.03, 0.1, 0.3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
const std::vector<double> kQuickWideRatios = {0.01, 1};
const std::vector<std::string> kSchemes = {"never",   "at:50",        "at:20,40,60,80", "every:10",
                                           "every:5", "cost-benefit", "replay",         "oracle"};
const char* const kPaperAxis =
    "ratio = A / I: A the average cost of a redistribution (mean simulated duration of the "
    "redistributions that move a column in at:50, at:20,40,60,80, every:10 and every:5), I the "
    "balanced iteration time at the first speeds; larger: faster processors";
const char* const kWideAxis =
    "rho = I / T_ref: I the balanced iteration time at the first speeds, T_ref the planned "
    "makespan of the redistribution from the first iteration's targets to the last's";

// One sweep of ratios: an axis, an amplitude of the speed changes, the networks it runs on.
struct Sweep {
  std::string name;  // paper, wide, small
  std::string axis;  // paper or reference (redist-ring-sim --axis)
  double amplitude = 8;
  std::vector<std::string> modes;  // tiers (the results), model (the check)
  std::vector<double> ratios;
  std::string scope_note;  // appended to the figure's caption: a quick run says so
};

struct Job {
  const Sweep* sweep = nullptr;
  std::string mode;
  std::int64_t processors = 0;
  std::uint64_t seed = 0;
  Json result;  // redist-ring-sim's output
};

std::vector<std::string> command(const std::string& program, const Job& job) {
  std::vector<std::string> argv = {program,
                                   "--processors",
                                   std::to_string(job.processors),
                                   "--seed",
                                   std::to_string(job.seed),
                                   "--mode",
                                   job.mode,
                                   "--axis",
                                   job.sweep->axis,
                                   "--amplitude",
                                   fmt::format("{}", job.sweep->amplitude),
                                   "--ratios"};
  for (double r : job.sweep->ratios) argv.push_back(fmt::format("{}", r));
  argv.push_back("--schemes");
  for (const std::string& s : kSchemes) argv.push_back(s);
  return argv;
}

// Runs every job, `jobs` at a time, with progress on standard error.
void run_jobs(std::vector<Job>& all, const std::string& program, unsigned jobs) {
  std::atomic<std::size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  std::mutex lock;
  std::size_t done = 0;
  std::string failure;
  const auto worker = [&] {
    for (std::size_t i = next++; i < all.size(); i = next++) {
      Job& job = all[i];
      const ProgramResult r = run_program(command(program, job));
      const std::lock_guard<std::mutex> guard(lock);
      if (r.exit_code != 0) {
        if (failure.empty())
          failure = fmt::format(
              "experiment ring-sim: the simulation of p = {}, seed {}, mode {}, sweep {} failed: "
              "redist-ring-sim exited with code {}: {}",
              job.processors, job.seed, job.mode, job.sweep->name, r.exit_code,
              one_line(last_error_line(r.err), 300));
        continue;
      }
      job.result = Json::parse(r.out);
      std::fprintf(stderr, "ring-sim: %zu/%zu scenarios, %.0f s (p = %lld, seed %llu, %s, %s)\n",
                   ++done, all.size(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                   static_cast<long long>(job.processors),
                   static_cast<unsigned long long>(job.seed), job.mode.c_str(),
                   job.sweep->name.c_str());
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, jobs); ++t) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  if (!failure.empty()) throw StepFailed(failure, "redist-ring-sim");
}

// Mean over the scenarios of one sweep and ring size on the Tiers routes of total(scheme) /
// total(reference), per ratio.
std::vector<double> mean_ratio(const std::vector<Job>& jobs, const Sweep& sweep, std::int64_t p,
                               const std::string& scheme, const std::string& reference) {
  std::vector<double> mean(sweep.ratios.size(), 0.0);
  double count = 0;
  for (const Job& job : jobs) {
    if (job.sweep != &sweep || job.mode != "tiers" || job.processors != p) continue;
    std::map<std::pair<double, std::string>, double> total;
    for (const Json& run : job.result["runs"])
      total[{run["ratio"].get<double>(), run["scheme"].get<std::string>()}] = run["total_time"];
    ++count;
    for (std::size_t k = 0; k < sweep.ratios.size(); ++k) {
      const double r = sweep.ratios[k];
      mean[k] += (total.at({r, scheme}) / total.at({r, reference}) - mean[k]) / count;
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

// The mean over one sweep's, mode's and ring size's scenarios of A / T_ref (the paper's axis's
// average redistribution over the reference one: R = that / rho for the same work), its range,
// and the mean count of redistributions averaged.
Json calibration(const std::vector<Job>& jobs, const Sweep& sweep, const std::string& mode,
                 std::int64_t p) {
  double sum = 0, low = 0, high = 0, averaged = 0;
  std::size_t n = 0;
  for (const Job& job : jobs) {
    if (job.sweep != &sweep || job.mode != mode || job.processors != p) continue;
    const Json& sc = job.result["scenario"];
    const double q =
        sc["average_redistribution"].get<double>() / sc["reference_redistribution"].get<double>();
    low = n == 0 ? q : std::min(low, q);
    high = n == 0 ? q : std::max(high, q);
    sum += q;
    averaged += sc["redistributions_averaged"].get<double>();
    ++n;
  }
  const double count = static_cast<double>(std::max<std::size_t>(n, 1));
  return {{"average_over_reference", sum / count},
          {"min", low},
          {"max", high},
          {"redistributions_averaged", averaged / count}};
}

std::string amplitude_text(double amplitude) {
  return amplitude >= 8 ? std::string("new speeds: any other machine")
                        : fmt::format("new speeds within a factor {} of the old", amplitude);
}

std::string figure(const Json& normalized, std::int64_t p, const Sweep& sweep) {
  const bool paper = sweep.axis == "paper";
  svg::LinePlot plot;
  plot.title = paper ? fmt::format(
                           "RRV04 Figure {}: normalized execution time, ring of {} processors "
                           "(Tiers-like platform; {})",
                           p == 8 ? 13 : 14, p, amplitude_text(sweep.amplitude))
                     : fmt::format(
                           "Normalized execution time, ring of {} processors, wide sweep on the "
                           "reference axis (Tiers-like platform; {})",
                           p, amplitude_text(sweep.amplitude));
  plot.caption =
      paper ? "Ratio 10: a redistribution costs 10 balanced iterations on average (RRV04: "
              "processing power high). RRV04 prints no values for this figure, so no published "
              "point is drawn."
            : "rho = 0.01: the redistribution across the whole drift costs 100 balanced "
              "iterations. This axis runs the other way from RRV04's Figures 13 and 14.";
  plot.caption += sweep.scope_note;
  plot.x_label = paper ? "computation-to-communication ratio (average redistribution / iteration)"
                       : "rho (iteration / redistribution across the whole drift)";
  plot.y_label = "mean total time / time without redistribution (axis cut at 2)";
  for (const std::string& scheme : kSchemes) {
    svg::Series s{scheme, sweep.ratios,
                  normalized[scheme][std::to_string(p)].get<std::vector<double>>(), false, true};
    plot.series.push_back(std::move(s));
  }
  plot.log_x = !paper;
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

Json per_scheme(const std::vector<Job>& jobs, const Sweep& sweep, const std::string& reference) {
  Json out;
  for (const std::string& scheme : kSchemes)
    for (std::int64_t p : kRingSizes)
      out[scheme][std::to_string(p)] = mean_ratio(jobs, sweep, p, scheme, reference);
  return out;
}

std::string find_program(const RingSimExperimentOptions& o) {
  std::string program = o.program.empty() ? executable_directory() + "/redist-ring-sim" : o.program;
  if (!std::filesystem::exists(program))
    throw InputError(fmt::format("{} not found (it is built when SimGrid is found)", program),
                     "ring-sim");
  return program;
}

// A sweep's tables, figures and summary: ratios, normalized times, times over the oracle, the
// calibration of the paper's axis.
Json write_sweep(OutputDirectory& out, const std::vector<Job>& jobs, const Sweep& sweep) {
  const std::string stem = sweep.name == "paper" ? "ring_sim_" : "ring_sim_" + sweep.name + "_";
  const std::string where =
      fmt::format("{} axis, {}", sweep.axis == "paper" ? "paper's" : "reference",
                  amplitude_text(sweep.amplitude));
  Json normalized = per_scheme(jobs, sweep, "never");
  Json over_oracle = per_scheme(jobs, sweep, "oracle");
  out.write_table(
      stem + "normalized",
      ratio_table(fmt::format("Mean total time over the time without redistribution "
                              "(Tiers routes, {})",
                              where),
                  normalized, sweep.ratios, sweep.axis == "paper" ? kPaperAxis : kWideAxis));
  out.write_table(stem + "vs_oracle",
                  ratio_table(fmt::format("Mean total time over the hindsight optimum's (Tiers "
                                          "routes, {})",
                                          where),
                              over_oracle, sweep.ratios,
                              "oracle: the best rebalance points for the simulated durations."));
  for (std::int64_t p : kRingSizes) {
    const std::string name =
        sweep.name == "paper" ? fmt::format("ring_sim_figure{}.svg", p == 8 ? 13 : 14)
        : sweep.name == "wide"
            ? fmt::format("ring_sim_wide_p{}.svg", p)
            : fmt::format("ring_sim_figure{}_{}.svg", p == 8 ? 13 : 14, sweep.name);
    out.write_text(name, figure(normalized, p, sweep));
  }
  Json summary = {{"axis", sweep.axis == "paper" ? kPaperAxis : kWideAxis},
                  {"amplitude", sweep.amplitude},
                  {"ratios", sweep.ratios},
                  {"normalized_time", std::move(normalized)},
                  {"time_over_oracle", std::move(over_oracle)}};
  if (sweep.axis == "paper")
    for (const std::string& mode : sweep.modes)
      for (std::int64_t p : kRingSizes)
        summary["calibration"][mode][std::to_string(p)] = calibration(jobs, sweep, mode, p);
  return summary;
}

void check_amplitude(double amplitude, bool zero_allowed) {
  if (zero_allowed && amplitude == 0) return;
  // sim/ring_sim.hpp's min_speed_amplitude(): the machine list's widest gap is 22 -> 28.
  const double least = balance::kMachineSpeeds[1] / balance::kMachineSpeeds[0];
  if (!(std::isfinite(amplitude) && amplitude >= least))
    throw InputError(fmt::format("must be a finite number >= {:.4g}, got {}", least, amplitude),
                     "--amplitude");
}

std::vector<Sweep> sweeps(const RingSimExperimentOptions& o) {
  std::vector<Sweep> out = {{"paper",
                             "paper",
                             o.amplitude,
                             {"tiers", "model"},
                             o.quick ? kQuickPaperRatios : kPaperRatios,
                             ""},
                            {"wide",
                             "reference",
                             o.amplitude,
                             {"tiers", "model"},
                             o.quick ? kQuickWideRatios : kWideRatios,
                             ""}};
  if (o.small_amplitude > 0)
    out.push_back({"small",
                   "paper",
                   o.small_amplitude,
                   {"tiers"},
                   o.quick ? kQuickPaperRatios : kPaperRatios,
                   ""});
  return out;
}

}  // namespace

Json run_ring_sim_experiment(const RingSimExperimentOptions& o) {
  const std::int64_t seeds = o.seeds > 0 ? o.seeds : o.quick ? 2 : 20;
  if (seeds > kRingSimMaxSeeds)
    throw InputError(fmt::format("must be in 1..{}", kRingSimMaxSeeds), "--seeds");
  check_amplitude(o.amplitude, false);
  check_amplitude(o.small_amplitude, true);
  const std::string program = find_program(o);
  std::vector<Sweep> all = sweeps(o);
  if (o.quick) {
    for (Sweep& sweep : all) {
      sweep.scope_note = fmt::format(
          " Quick run: fewer scenarios ({} ratios, {} seeds per point, against {} and 20 in the "
          "full run); a check of the pipeline, not a result.",
          sweep.ratios.size(), seeds, (sweep.name == "wide" ? kWideRatios : kPaperRatios).size());
    }
  }
  std::vector<Job> jobs;
  for (const Sweep& sweep : all)
    for (const std::string& mode : sweep.modes)
      for (std::int64_t p : kRingSizes)
        for (std::int64_t j = 0; j < seeds; ++j)
          jobs.push_back({&sweep, mode, p, o.seed * 1000 + static_cast<std::uint64_t>(j), {}});
  run_jobs(jobs, program, o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency()));

  OutputDirectory out(o.out_dir);
  Json paper = write_sweep(out, jobs, all[0]);
  Json results;
  results["ring_sizes"] = kRingSizes;
  results["schemes"] = kSchemes;
  for (auto& [key, value] : paper.items()) results[key] = std::move(value);  // ratios, axis, ...
  results["wide"] = write_sweep(out, jobs, all[1]);
  if (all.size() > 2) results["small_amplitude"] = write_sweep(out, jobs, all[2]);
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
