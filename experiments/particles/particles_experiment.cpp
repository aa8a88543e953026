#include "experiments/particles/particles_experiment.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "experiments/particles/policy_replay.hpp"
#include "experiments/particles/recording.hpp"
#include "experiments/ring_sim/subprocess.hpp"
#include "redist/common/error.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 3> kDrifts{"steps", "walk", "transient"};
constexpr std::array<std::int64_t, 3> kParticleBytes{1024, 16 * 1024, 256 * 1024};
// Fixed periods (mpm's default every 10,000 steps among them), thresholds (StePS's 5%, 4C's
// 1.35 over 3 steps with a 100-step cooldown), and the adaptive policies.
const std::vector<std::string> kPolicies = {"never",
                                            "every:5",
                                            "every:10",
                                            "every:25",
                                            "every:10000",
                                            "threshold:1.05",
                                            "threshold:1.35/window:3/cooldown:100",
                                            "cost-benefit",
                                            "period-rule",
                                            "stable-horizon",
                                            "replay",
                                            "hedged-replay"};
const std::vector<std::string> kAdaptive = {"cost-benefit", "period-rule", "stable-horizon",
                                            "replay", "hedged-replay"};
constexpr const char* kFourC = "threshold:1.35/window:3/cooldown:100";
// The horizons of the foresight rule (policy_replay.hpp): fixed (0: the rest of the run), then
// multiples of each migration's payback time.
constexpr std::array<std::int64_t, 5> kForesight{5, 10, 20, 30, 0};
constexpr std::array<double, 3> kForesightPayback{2, 6, 12};
constexpr std::int64_t kMaxSmpiMessage = 8 * 1024 * 1024;
constexpr std::size_t kSmpiMigrationsPerRegime = 4;

struct Shape {
  int ranks;
  std::int64_t particles, iterations;
};

Shape shape_of(const ParticlesExperimentOptions& o) {
  return o.quick ? Shape{4, 1500, 30} : Shape{8, 5000, 100};
}

std::string beside(const std::string& given, const char* name) {
  const std::string path = given.empty() ? executable_directory() + "/" + name : given;
  if (!fs::exists(path)) {
    throw InputError(fmt::format("{} not found (built with MPI, Zoltan and SimGrid)", path),
                     "particles");
  }
  return path;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `directions`: the example's --rcb-directions (locked, or free for the comparison).
PartitionRecording record(const ParticlesExperimentOptions& o, const std::string& program,
                          const Shape& s, const char* drift, std::uint64_t seed,
                          const char* directions, const fs::path& dir) {
  const fs::path file = dir / fmt::format("recording-{}-{}-{}.json", drift, seed, directions);
  const ProgramResult r =
      run_program({o.mpirun, "-np", std::to_string(s.ranks), "--oversubscribe", program, "--record",
                   file.string(), "--drift", drift, "--seed", std::to_string(seed), "--iterations",
                   std::to_string(s.iterations), "--particles", std::to_string(s.particles),
                   "--rcb-directions", directions});
  if (r.exit_code != 0) {
    throw StepFailed(fmt::format("experiment particles: the recording ({} drift, seed {}) "
                                 "failed: mpirun exited with code {}: {}",
                                 drift, seed, r.exit_code, last_error_line(r.err + r.out)),
                     "mpirun");
  }
  return recording_from_json(read_file(file));
}

// NICs log-uniform in [125 MB/s, 1.25 GB/s], the same for a seed whatever the regime.
ReplayPlatform platform(std::uint64_t seed, int ranks, std::int64_t particle_bytes) {
  std::mt19937_64 rng(seed * 7919 + 17);
  ReplayPlatform p;
  for (int r = 0; r < ranks; ++r) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    p.bandwidth.push_back(125e6 * std::pow(10.0, u));
  }
  p.particle_bytes = particle_bytes;
  p.work_seconds = 1e-3;
  return p;
}

// One regime: a drift and a particle size, over the seeds.
struct Regime {
  std::string drift;
  std::int64_t particle_bytes = 0;
  std::vector<std::vector<double>> seed_ratio;  // per policy, per seed: total / oracle's
  std::vector<double> ratio;             // per policy: the mean of seed_ratio (average_seeds)
  std::vector<double> rebalances;        // per policy: mean over seeds
  double migration_in_iterations = 0.0;  // a typical migration's cost over a bound iteration's
  double oracle_rebalances = 0.0;
  // Summed over the seeds: the cost (in bound iterations) and the number of the migrations of
  // the optimum and of each policy; their ratio is the mean cost of one migration.
  double oracle_migration_cost = 0.0, oracle_migrations = 0.0;
  std::vector<double> migration_cost, migrations;
  // Per horizon of kForesight, then of kForesightPayback: mean over seeds of total / oracle's.
  std::vector<double> foresight;
  std::vector<exchange::Instance> smpi;  // the first seed's oracle migrations (scaled)
  // The same runs with the RCB cut directions free (chosen again by every partition): the free
  // optimum's total over the locked optimum's, and per policy of kAdaptive its total over the
  // free optimum's (means over seeds).
  double free_oracle = 0.0;
  std::vector<double> free_ratio;
};

// The mean time of an iteration at the bound (sum of work over sum of speeds): the unit in which
// the tables give migration costs.
double bound_iteration(const PartitionCosts& costs) {
  double bound = 0.0;
  for (std::int64_t t = 1; t <= costs.iterations(); ++t) bound += costs.bound_time(t);
  return bound / static_cast<double>(costs.iterations());
}

// The migration from the initial partition to the middle one, in bound iterations.
double typical_migration(PartitionCosts& costs) {
  const std::int64_t k = costs.iterations();
  return k < 2 ? 0.0 : costs.migration_cost(0, k / 2) / bound_iteration(costs);
}

exchange::Instance scaled(exchange::Instance in) {
  std::int64_t largest = 1;
  for (const auto& m : in.messages) largest = std::max(largest, m.bytes);
  if (largest <= kMaxSmpiMessage) return in;
  const double scale = static_cast<double>(kMaxSmpiMessage) / static_cast<double>(largest);
  for (auto& m : in.messages) {
    m.bytes =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(m.bytes) * scale));
  }
  return in;
}

// `run`'s total over the hindsight optimum's; std::logic_error if it is shorter (a bug).
double over_optimum(const PolicyReplay& run, double oracle) {
  if (run.total_time < oracle * (1 - 1e-9)) {
    throw std::logic_error(fmt::format("{} ({}) beats the hindsight optimum ({})", run.policy,
                                       run.total_time, oracle));
  }
  return run.total_time / oracle;
}

// The foresight rule of every horizon of kForesight and kForesightPayback on one seed's costs.
void foresight_seed(PartitionCosts& costs, Regime& regime, double oracle, double weight) {
  std::vector<PolicyReplay> runs;
  for (const std::int64_t h : kForesight)
    runs.push_back(replay_foresight(costs, h > 0 ? h : costs.iterations()));
  for (const double multiple : kForesightPayback)
    runs.push_back(replay_foresight_payback(costs, multiple));
  for (std::size_t i = 0; i < runs.size(); ++i)
    regime.foresight[i] += weight * over_optimum(runs[i], oracle);
}

// Returns the hindsight optimum's total time.
double replay_seed(PartitionCosts& costs, Regime& regime, bool first_seed, double weight) {
  const PolicyReplay oracle = replay_oracle(costs);
  const double unit = bound_iteration(costs);
  for (std::size_t i = 0; i < kPolicies.size(); ++i) {
    const PolicyReplay run = replay_policy(costs, kPolicies[i]);
    regime.seed_ratio[i].push_back(over_optimum(run, oracle.total_time));
    regime.rebalances[i] += weight * static_cast<double>(run.points.size());
    regime.migration_cost[i] += run.migrations_time / unit;
    regime.migrations[i] += static_cast<double>(run.points.size());
  }
  foresight_seed(costs, regime, oracle.total_time, weight);
  regime.oracle_rebalances += weight * static_cast<double>(oracle.points.size());
  regime.oracle_migration_cost += oracle.migrations_time / unit;
  regime.oracle_migrations += static_cast<double>(oracle.points.size());
  regime.migration_in_iterations += weight * typical_migration(costs);
  if (!first_seed) return oracle.total_time;
  std::int64_t from = 0;
  for (const std::int64_t to : oracle.points) {
    if (regime.smpi.size() < kSmpiMigrationsPerRegime)
      regime.smpi.push_back(scaled(costs.migration(from, to)));
    from = to;
  }
  return oracle.total_time;
}

// The adaptive policies on the proposals of free cut directions (`costs`), against their own
// optimum and the locked one (`locked_oracle`).
void replay_free_seed(PartitionCosts& costs, Regime& regime, double locked_oracle, double weight) {
  const double oracle = replay_oracle(costs).total_time;
  regime.free_oracle += weight * oracle / locked_oracle;
  for (std::size_t i = 0; i < kAdaptive.size(); ++i)
    regime.free_ratio[i] += weight * over_optimum(replay_policy(costs, kAdaptive[i]), oracle);
}

// Each policy's ratio: the mean of its seeds' (each weighted by `weight`, 1 / seeds).
void average_seeds(Regime& regime, double weight) {
  for (std::size_t i = 0; i < regime.seed_ratio.size(); ++i) {
    double mean = 0.0;
    for (const double x : regime.seed_ratio[i]) mean += weight * x;
    regime.ratio[i] = mean;
  }
}

Table regimes_table(const std::vector<Regime>& regimes, const Shape& s, std::int64_t seeds) {
  Table t;
  t.title = fmt::format(
      "Total time over the hindsight optimum's, mean over {} seeds ({} ranks, {} particles, {} "
      "iterations)",
      seeds, s.ranks, s.particles, s.iterations);
  t.columns = {"regime", "drift", "particle KiB", "migration / iteration", "oracle rebalances"};
  for (const std::string& p : kPolicies) t.columns.push_back(p);
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    const Regime& g = regimes[r];
    std::vector<nlohmann::ordered_json> row = {
        static_cast<std::int64_t>(r + 1), g.drift, g.particle_bytes / 1024,
        rounded(g.migration_in_iterations, 3), rounded(g.oracle_rebalances, 1)};
    for (const double x : g.ratio) row.push_back(rounded(x, 4));
    t.rows.push_back(row);
  }
  t.notes.push_back(
      "every:10000 is mpm's default period (never within these runs); "
      "threshold:1.35/window:3/cooldown:100 is 4C's rule; threshold:1.05 StePS's.");
  return t;
}

std::size_t index_of(const std::string& policy) {
  return static_cast<std::size_t>(std::find(kPolicies.begin(), kPolicies.end(), policy) -
                                  kPolicies.begin());
}

// The standard error of policy i's mean over the regimes, from its spread over the seeds (each
// seed's mean over the regimes); 0 with one seed.
double standard_error(const std::vector<Regime>& regimes, std::size_t i) {
  const std::size_t seeds = regimes.front().seed_ratio[i].size();
  if (seeds < 2) return 0.0;
  std::vector<double> per_seed(seeds, 0.0);
  for (const Regime& g : regimes) {
    for (std::size_t s = 0; s < seeds; ++s)
      per_seed[s] += g.seed_ratio[i][s] / static_cast<double>(regimes.size());
  }
  double mean = 0, squares = 0;
  for (const double x : per_seed) mean += x / static_cast<double>(seeds);
  for (const double x : per_seed) squares += (x - mean) * (x - mean);
  return std::sqrt(squares / static_cast<double>(seeds - 1) / static_cast<double>(seeds));
}

// Each policy over every regime, and how the best adaptive one fares against the rules.
Table policies_table(const std::vector<Regime>& regimes, nlohmann::ordered_json& verdict) {
  Table t;
  t.title = "Each policy's total over the hindsight optimum's, over every regime";
  t.columns = {"policy", "mean", "standard error", "max", "mean rebalances"};
  std::string best;
  double best_mean = INFINITY;
  for (std::size_t i = 0; i < kPolicies.size(); ++i) {
    double sum = 0, worst = 0, rebalances = 0;
    for (const Regime& g : regimes) {
      sum += g.ratio[i], worst = std::max(worst, g.ratio[i]), rebalances += g.rebalances[i];
    }
    const double n = static_cast<double>(regimes.size()), mean = sum / n;
    t.rows.push_back({kPolicies[i], rounded(mean, 4), rounded(standard_error(regimes, i), 4),
                      rounded(worst, 4), rounded(rebalances / n, 1)});
    const bool adaptive =
        std::find(kAdaptive.begin(), kAdaptive.end(), kPolicies[i]) != kAdaptive.end();
    if (adaptive && mean < best_mean) best_mean = mean, best = kPolicies[i];
  }
  std::int64_t ahead_of_periods = 0, ahead_of_4c = 0;
  const std::size_t b = index_of(best);
  for (const Regime& g : regimes) {
    double period = INFINITY;
    for (std::size_t i = 0; i < kPolicies.size(); ++i) {
      if (kPolicies[i] == "never" || kPolicies[i].rfind("every:", 0) == 0)
        period = std::min(period, g.ratio[i]);
    }
    ahead_of_periods += g.ratio[b] <= period;
    ahead_of_4c += g.ratio[b] <= g.ratio[index_of(kFourC)];
  }
  verdict = {{"best_adaptive", best},
             {"mean_over_oracle", rounded(best_mean, 4)},
             {"regimes", regimes.size()},
             {"ahead_of_every_fixed_period", ahead_of_periods},
             {"ahead_of_4c", ahead_of_4c}};
  t.notes.push_back(fmt::format(
      "Best adaptive policy: {} at {:.4f} of the optimum on average; no worse than the best fixed "
      "period (hindsight's choice of never, every:5, 10, 25, 10000) in {} of {} regimes, than 4C's "
      "rule in {}. Standard error: of the mean, from the spread of the seeds' means over the "
      "regimes (0 with one seed).",
      best, best_mean, ahead_of_periods, regimes.size(), ahead_of_4c));
  return t;
}

// What one migration costs the optimum and the best adaptive policy, per regime: the optimum's
// advantage is as much in the migrations it picks as in when it rebalances.
Table prices_table(const std::vector<Regime>& regimes, const std::string& best) {
  const std::size_t b = index_of(best);
  Table t;
  t.title = fmt::format(
      "Migrations of the optimum and of {}: how many per run, and their mean cost", best);
  t.columns = {"regime",
               "drift",
               "particle KiB",
               "typical migration / iteration",
               "oracle rebalances",
               "oracle migration / iteration",
               best + " rebalances",
               best + " migration / iteration"};
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    const Regime& g = regimes[r];
    const auto price = [](double cost, double count) {
      return count > 0 ? rounded(cost / count, 3) : 0.0;
    };
    t.rows.push_back({static_cast<std::int64_t>(r + 1), g.drift, g.particle_bytes / 1024,
                      rounded(g.migration_in_iterations, 3), rounded(g.oracle_rebalances, 1),
                      price(g.oracle_migration_cost, g.oracle_migrations),
                      rounded(g.rebalances[b], 1), price(g.migration_cost[b], g.migrations[b])});
  }
  t.notes.push_back(
      "migration / iteration: the time of one migration over the run's mean iteration time at the "
      "bound (sum of work over sum of speeds); typical: from the initial partition to the middle "
      "one's; the optimum's and the policy's: the mean over all their migrations, every seed.");
  return t;
}

// The rule that knows each proposal's saving over a horizon (policy_replay.hpp), per horizon,
// against the best adaptive policy: what judging one proposal at a time can reach.
Table foresight_table(const std::vector<Regime>& regimes, const std::string& best) {
  Table t;
  t.title = "One proposal at a time, with foresight: total over the hindsight optimum's";
  t.columns = {"rule"};
  for (std::size_t r = 0; r < regimes.size(); ++r) t.columns.push_back(std::to_string(r + 1));
  t.columns.push_back("mean"), t.columns.push_back("max");
  std::vector<std::string> rules;
  for (const std::int64_t h : kForesight) {
    rules.push_back(h > 0 ? fmt::format("saving over the next {} iterations known", h)
                          : std::string("saving over the rest of the run known"));
  }
  for (const double multiple : kForesightPayback)
    rules.push_back(fmt::format("saving over {} payback times known", multiple));
  const double n = static_cast<double>(regimes.size());
  const auto add = [&](const std::string& rule, const auto& ratio_of) {
    double sum = 0, worst = 0;
    std::vector<nlohmann::ordered_json> row = {rule};
    for (const Regime& g : regimes) {
      sum += ratio_of(g), worst = std::max(worst, ratio_of(g));
      row.push_back(rounded(ratio_of(g), 4));
    }
    row.push_back(rounded(sum / n, 4)), row.push_back(rounded(worst, 4));
    t.rows.push_back(row);
  };
  for (std::size_t i = 0; i < rules.size(); ++i)
    add(rules[i], [i](const Regime& g) { return g.foresight[i]; });
  const std::size_t b = index_of(best);
  add(best + " (online)", [b](const Regime& g) { return g.ratio[b]; });
  t.notes.push_back(
      "Not online: after each iteration, the rule rebalances when the exact saving of moving to "
      "the proposal, over the horizon, exceeds the planned migration; a payback time is the "
      "migration's cost over the immediate gain. Columns 1-9: the regimes of "
      "particles_regimes.md; mean and max over them.");
  return t;
}

// Locked against free RCB cut directions, per regime and on average.
Table directions_table(const std::vector<Regime>& regimes) {
  Table t;
  t.title = "RCB cut directions locked (the example's default) or free";
  t.columns = {"regime", "drift", "particle KiB", "free optimum / locked optimum"};
  for (const std::string& p : kAdaptive) t.columns.push_back(p + ", free");
  for (const std::string& p : kAdaptive) t.columns.push_back(p + ", locked");
  const auto add = [&](std::vector<nlohmann::ordered_json> row, const std::vector<double>& v) {
    for (const double x : v) row.push_back(rounded(x, 4));
    t.rows.push_back(std::move(row));
  };
  std::vector<double> mean(1 + 2 * kAdaptive.size(), 0.0);
  const double n = static_cast<double>(regimes.size());
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    const Regime& g = regimes[r];
    std::vector<double> v = {g.free_oracle};
    v.insert(v.end(), g.free_ratio.begin(), g.free_ratio.end());
    for (const std::string& p : kAdaptive) v.push_back(g.ratio[index_of(p)]);
    for (std::size_t i = 0; i < v.size(); ++i) mean[i] += v[i] / n;
    add({static_cast<std::int64_t>(r + 1), g.drift, g.particle_bytes / 1024}, v);
  }
  add({"mean", "", ""}, mean);
  t.notes.push_back(
      "Policies: total time over the hindsight optimum of the same proposals (free, or locked "
      "as in particles_regimes.md). Free: every Zoltan RCB partition chooses its cut directions "
      "again (--rcb-directions free); locked: they stay those of the first partition.");
  return t;
}

// The figure's policies and their labels.
const std::vector<std::pair<std::string, std::string>> kFigurePolicies = {
    {"never", "never (mpm default)"},
    {"every:10", "every:10"},
    {kFourC, "4C (1.35, 3 steps, cooldown 100)"},
    {"threshold:1.05", "StePS (1.05)"},
    {"cost-benefit", "cost-benefit"},
    {"replay", "replay"},
    {"hedged-replay", "hedged-replay"}};
constexpr double kFigureTop = 4.0;

// A regime's name under the figure's axis.
std::string regime_name(const std::string& drift, std::int64_t particle_bytes) {
  return fmt::format("{}\n{} KiB", drift, particle_bytes / 1024);
}

// The figure: a category per regime (`names`), per policy of kFigurePolicies its mean over the
// optimum in each regime and, when known (else empty), the standard error of that mean.
std::string draw_figure(const std::vector<std::string>& names,
                        const std::vector<std::vector<double>>& means,
                        const std::vector<std::vector<double>>& errors) {
  svg::LinePlot plot;
  plot.title = "Rebalancing policies on recorded particle runs: total time over the optimum's";
  plot.x_label = "regime (drift of the ranks' speeds, particle size)";
  plot.y_label = fmt::format("total time / hindsight optimum (axis cut at {})", kFigureTop);
  plot.y_min = 0.9;
  plot.y_max = kFigureTop;
  plot.x_categories = names;
  bool any_error = false;
  for (std::size_t i = 0; i < kFigurePolicies.size(); ++i) {
    svg::Series s;
    s.label = kFigurePolicies[i].second;
    s.markers = true;
    s.line = false;
    for (std::size_t r = 0; r < names.size(); ++r) {
      s.x.push_back(static_cast<double>(r));
      s.y.push_back(means[i][r]);
    }
    s.error = errors[i];
    any_error |= !s.error.empty();
    plot.series.push_back(s);
  }
  plot.caption = "Points above the cut are not drawn (the tables have them).";
  if (any_error) plot.caption += " Bars: +-1 standard error of the mean over the seeds.";
  return svg::render_line_plot(plot);
}

std::string figure(const std::vector<Regime>& regimes) {
  std::vector<std::string> names;
  for (const Regime& g : regimes) names.push_back(regime_name(g.drift, g.particle_bytes));
  std::vector<std::vector<double>> means, errors;
  for (const auto& [policy, label] : kFigurePolicies) {
    const std::size_t i = index_of(policy);
    std::vector<double> mean, error;
    for (const Regime& g : regimes) {
      mean.push_back(g.ratio[i]);
      // The standard error of the mean over the seeds (none with a single seed).
      const auto n = static_cast<double>(g.seed_ratio[i].size());
      if (n < 2) continue;
      double squares = 0;
      for (const double x : g.seed_ratio[i]) squares += (x - g.ratio[i]) * (x - g.ratio[i]);
      error.push_back(std::sqrt(squares / (n - 1) / n));
    }
    means.push_back(std::move(mean));
    errors.push_back(error.size() == regimes.size() ? error : std::vector<double>{});
  }
  return draw_figure(names, means, errors);
}

}  // namespace

namespace {

// The regimes' sampled migrations under SMPI: one script run, then one row per regime.
Table migrations_table(std::vector<Regime>& regimes, const std::string& script,
                       const fs::path& dir) {
  std::vector<std::string> argv = {script, fs::path(script).parent_path().string(), "--json",
                                   (dir / "smpi.json").string(), "--instances"};
  std::vector<std::size_t> owner;  // regime of each instance
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    for (std::size_t i = 0; i < regimes[r].smpi.size(); ++i) {
      const fs::path file = dir / fmt::format("migration-{}-{}.json", r + 1, i);
      std::ofstream(file) << io::exchange_instance_json(regimes[r].smpi[i]);
      argv.push_back(file.string());
      owner.push_back(r);
    }
  }
  Table t;
  t.title = "The optimum's migrations under SMPI (one-port switch, heterogeneous NICs)";
  t.columns = {"regime",
               "drift",
               "particle KiB",
               "migrations",
               "redist / model (max)",
               "posted / redist (mean)",
               "posted / redist (min)",
               "Alltoallv / redist (mean)"};
  if (owner.empty()) return t;
  const ProgramResult run = run_program(argv);
  if (run.exit_code != 0) {
    throw StepFailed(fmt::format("experiment particles: the migrations under SMPI failed: "
                                 "smpi_exchange.py exited with code {}: {}",
                                 run.exit_code, last_error_line(run.err)),
                     "smpi_exchange.py");
  }
  const auto rows = nlohmann::ordered_json::parse(read_file(dir / "smpi.json"))["rows"];
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    double model = 0, posted = 0, posted_min = INFINITY, alltoallv = 0, n = 0;
    for (std::size_t k = 0; k < owner.size(); ++k) {
      if (owner[k] != r) continue;
      const auto& x = rows[k];
      model = std::max(model, x["redist_over_model"].get<double>());
      posted += x["posted_over_redist"].get<double>();
      posted_min = std::min(posted_min, x["posted_over_redist"].get<double>());
      alltoallv += x["alltoallv_over_redist"].get<double>();
      ++n;
    }
    if (n == 0) continue;
    t.rows.push_back({static_cast<std::int64_t>(r + 1), regimes[r].drift,
                      regimes[r].particle_bytes / 1024, static_cast<std::int64_t>(n),
                      rounded(model, 4), rounded(posted / n, 3), rounded(posted_min, 3),
                      rounded(alltoallv / n, 3)});
  }
  t.notes.push_back(
      "posted: Zoltan_Migrate's pattern (every receive posted, blocking sends in rank "
      "order). Messages scaled to at most 8 MiB; with latency 0 times are "
      "proportional to bytes.");
  return t;
}

}  // namespace

nlohmann::ordered_json run_particles_experiment(const ParticlesExperimentOptions& o) {
  const std::int64_t seeds = o.seeds > 0 ? o.seeds : (o.quick ? 1 : kParticlesDefaultSeeds);
  if (seeds > kParticlesMaxSeeds) {
    throw InputError(fmt::format("at most {} seeds per drift", kParticlesMaxSeeds), "--seeds");
  }
  const std::string program = beside(o.program, "examples/example-particles");
  const std::string script = beside(o.smpi_script, "smpi_exchange.py");
  const Shape shape = shape_of(o);
  OutputDirectory out(o.out_dir);
  const fs::path scratch =
      fs::temp_directory_path() / fmt::format("redist-particles-{}", ::getpid());
  fs::create_directories(scratch);
  std::vector<Regime> regimes;
  Progress progress("particles", static_cast<std::int64_t>(kDrifts.size()) * seeds * 2,
                    "recordings");
  for (const char* drift : kDrifts) {
    const std::size_t first = regimes.size();
    for (const std::int64_t bytes : kParticleBytes) {
      Regime regime;
      regime.drift = drift, regime.particle_bytes = bytes;
      regime.ratio = regime.rebalances = regime.migration_cost = regime.migrations =
          std::vector<double>(kPolicies.size(), 0.0);
      regime.foresight = std::vector<double>(kForesight.size() + kForesightPayback.size(), 0.0);
      regime.free_ratio = std::vector<double>(kAdaptive.size(), 0.0);
      regime.seed_ratio.resize(kPolicies.size());
      regimes.push_back(std::move(regime));
    }
    for (std::int64_t k = 0; k < seeds; ++k) {
      const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(k);
      const PartitionRecording locked = record(o, program, shape, drift, seed, "locked", scratch);
      progress.advance();
      const PartitionRecording free = record(o, program, shape, drift, seed, "free", scratch);
      for (std::size_t b = 0; b < kParticleBytes.size(); ++b) {
        const ReplayPlatform on = platform(seed, shape.ranks, kParticleBytes[b]);
        const double weight = 1.0 / static_cast<double>(seeds);
        PartitionCosts costs(locked, on), free_costs(free, on);
        const double oracle = replay_seed(costs, regimes[first + b], k == 0, weight);
        replay_free_seed(free_costs, regimes[first + b], oracle, weight);
      }
      progress.advance();
    }
  }
  progress.finish();
  for (Regime& regime : regimes) average_seeds(regime, 1.0 / static_cast<double>(seeds));
  const Table by_regime = regimes_table(regimes, shape, seeds);
  nlohmann::ordered_json verdict;
  const Table by_policy = policies_table(regimes, verdict);
  const Table prices = prices_table(regimes, verdict["best_adaptive"].get<std::string>());
  const Table foresight = foresight_table(regimes, verdict["best_adaptive"].get<std::string>());
  const Table directions = directions_table(regimes);
  const Table migrations = migrations_table(regimes, script, scratch);
  fs::remove_all(scratch);
  out.write_table("particles_regimes", by_regime);
  out.write_table("particles_policies", by_policy);
  out.write_table("particles_migration_costs", prices);
  out.write_table("particles_foresight", foresight);
  out.write_table("particles_directions", directions);
  out.write_table("particles_migrations", migrations);
  out.write_text("particles_policies.svg", figure(regimes));
  return experiment_summary("particles", o.seed, seeds, out,
                            {{"regimes", rows_as_objects(by_regime)},
                             {"policies", rows_as_objects(by_policy)},
                             {"migration_costs", rows_as_objects(prices)},
                             {"foresight", rows_as_objects(foresight)},
                             {"directions", rows_as_objects(directions)},
                             {"verdict", verdict},
                             {"migrations", rows_as_objects(migrations)}});
}

std::string particles_policies_figure(const nlohmann::ordered_json& regimes_table) {
  const auto& columns = regimes_table.at("columns");
  const auto column = [&](const std::string& name) -> std::optional<std::size_t> {
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (columns[c].get<std::string>() == name) return c;
    return std::nullopt;
  };
  const auto required = [&](const std::string& name) {
    const std::optional<std::size_t> c = column(name);
    if (!c) throw InputError(fmt::format("the regimes table has no column \"{}\"", name), "table");
    return *c;
  };
  const std::size_t drift = required("drift"), kib = required("particle KiB");
  std::vector<std::string> names;
  std::vector<std::vector<double>> means(kFigurePolicies.size()), errors(kFigurePolicies.size());
  for (const auto& row : regimes_table.at("rows")) {
    if (!row.at(kib).is_number()) continue;  // the mean row
    names.push_back(
        regime_name(row.at(drift).get<std::string>(), row.at(kib).get<std::int64_t>() * 1024));
    for (std::size_t i = 0; i < kFigurePolicies.size(); ++i) {
      means[i].push_back(row.at(required(kFigurePolicies[i].first)).get<double>());
      if (const auto e = column(kFigurePolicies[i].first + " standard error"))
        errors[i].push_back(row.at(*e).get<double>());
    }
  }
  return draw_figure(names, means, errors);
}

}  // namespace redist::experiments
