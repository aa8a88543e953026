#include "experiments/lau/lau_experiment.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "redist/common/error.hpp"
#include "redist/lau/linear.hpp"
#include "redist/lau/optimal.hpp"
#include "redist/lau/optimal_window.hpp"
#include "redist/lau/traffic.hpp"

namespace redist::experiments {

namespace {

using lau::Mode;
using lau::Plan;
using lau::Time;
using Json = nlohmann::ordered_json;

std::mt19937_64 row_rng(std::uint64_t seed, std::size_t n, std::int64_t max_load) {
  return std::mt19937_64(seed * 1000003ULL + n * 1009ULL + static_cast<std::uint64_t>(max_load));
}

lau::Instance draw(std::mt19937_64& rng, std::size_t n, std::int64_t max_load) {
  std::uniform_int_distribution<std::int64_t> load(0, max_load);
  std::vector<std::int64_t> loads(n);
  while (true) {
    std::int64_t total = 0;
    for (auto& l : loads) total += (l = load(rng));
    if (total % static_cast<std::int64_t>(n) == 0) return lau::balanced_instance(loads);
  }
}

std::string count_pct(std::int64_t count, std::int64_t total) {
  return fmt::format("{} ({:.2f}%)", count, total ? 100.0 * count / total : 0.0);
}
std::string pct(double x) { return fmt::format("{:.1f}%", 100.0 * x); }

// Relative excess of a time over the optimum (both finite, optimum >= 1).
double excess(const Time& t, const Time& best) {
  return static_cast<double>(*t - *best) / static_cast<double>(*best);
}

struct ModeRow {
  std::int64_t linear_opt = 0, traffic_opt = 0, all = 0, opt_only = 0;
  double extra_traffic_window = 0, extra_traffic_true = 0;  // sums over opt_only instances
  double worse_sum = 0;
  std::int64_t worse_count = 0;
  std::int64_t window_misses = 0, deadlocks = 0;
  double window_miss_sum = 0, window_miss_max = 0;
};

volatile std::int64_t benchmark_sink = 0;  // keeps the timed loops observable

struct Table3Row {
  double worse_sum = 0, single_sum = 0, multi_sum = 0, same_worse_sum = 0;
  std::int64_t same_equal = 0;
  std::int64_t equal = 0;
};

// LAU Tables 1 and 2 as printed (counts out of 50,000; +traffic and % worse in percent), rows in
// the order of kSizes.
struct PublishedModeRow {
  std::int64_t linear_opt, traffic_opt, all, opt, traffic_pct, worse_pct;
};
constexpr std::int64_t kPaperInstances = 50'000;
constexpr std::size_t kSizes[] = {50, 30, 20, 10, 4};
constexpr std::size_t kRows = std::size(kSizes) + 9;  // Tables 1-3, then Table 4
constexpr PublishedModeRow kPaperTable1[] = {{2607, 17167, 1513, 31739, 3, 87},
                                             {4116, 21574, 3090, 27400, 3, 99},
                                             {6046, 25802, 5186, 23338, 4, 109},
                                             {13664, 34485, 13281, 15132, 5, 127},
                                             {36783, 46107, 36783, 3893, 6, 107}};
constexpr PublishedModeRow kPaperTable2[] = {{7271, 24172, 6211, 24768, 7, 43},
                                             {10187, 29608, 9399, 19604, 8, 42},
                                             {13189, 33782, 12589, 15618, 10, 43},
                                             {17156, 39179, 16857, 10522, 11, 46},
                                             {36783, 46107, 36783, 3893, 6, 50}};
// LAU Table 3 (% worse, #equal); the paper has no row for n = 30.
struct PublishedTable3Row {
  std::size_t n;
  const char* worse;
  std::int64_t equal;
};
constexpr PublishedTable3Row kPaperTable3[] = {
    {4, "0%", 50000}, {10, "3.79%", 33000}, {20, "7.94%", 9185}, {50, "13.39%", 87}};
// LAU Table 4, rows in the order of table4()'s loops: mean total load, window with the Traffic
// schedule (printed first), with the Linear one (printed in parentheses), time in milliseconds.
struct PublishedTable4Row {
  std::int64_t total, traffic_window, linear_window;
  double milliseconds;
};
constexpr PublishedTable4Row kPaperTable4[] = {
    {1170, 79, 95, 1.05}, {1860, 182, 191, 4.41}, {4690, 386, 391, 22.2},
    {470, 39, 48, 0.54},  {760, 90, 95, 2.2},     {2090, 192, 195, 11.25},
    {170, 16, 19, 0.23},  {300, 36, 38, 0.95},    {770, 79, 80, 4.77}};

const PublishedTable3Row* paper_table3(std::size_t n) {
  for (const PublishedTable3Row& row : kPaperTable3)
    if (row.n == n) return &row;
  return nullptr;
}

// One instance of Tables 1-3: every algorithm in both modes against the optimum.
void measure(const lau::Instance& in, ModeRow (&rows)[2], Table3Row& r3) {
  const Plan linear = lau::plan_linear(in), traffic = lau::plan_traffic(in);
  Time best_times[2];
  Time single_plan_multi;  // T_m of the T_s-optimal schedule
  for (int m = 0; m < 2; ++m) {
    const Mode mode = m == 0 ? Mode::single : Mode::multi;
    const Plan window = lau::plan_optimal_window(in, mode);
    const Plan best = lau::plan_optimal(in, mode);
    const Time tb = lau::time_in(best, mode);
    best_times[m] = tb;
    if (m == 0) single_plan_multi = best.t_multi;
    ModeRow& r = rows[m];
    if (!tb) {
      ++r.deadlocks;  // cannot happen with loads summing to > 0; counted to be sure
      continue;
    }
    const Time tl = lau::time_in(linear, mode), tt = lau::time_in(traffic, mode),
               tw = lau::time_in(window, mode);
    const bool lo = tl == tb, to = tt == tb, wo = tw == tb;
    r.linear_opt += lo;
    r.traffic_opt += to;
    r.all += lo && to && wo;
    if (!lo && !to) {
      ++r.opt_only;
      const double base = static_cast<double>(traffic.traffic);
      r.extra_traffic_window += (static_cast<double>(window.traffic) - base) / base;
      r.extra_traffic_true += (static_cast<double>(best.traffic) - base) / base;
    }
    for (const Time& t : {tl, tt}) {
      if (t == tb) continue;
      ++r.worse_count;
      r.worse_sum += t ? excess(t, tb) : 0.0;
    }
    if (!wo) {
      ++r.window_misses;
      const double e = excess(tw, tb);
      r.window_miss_sum += e;
      r.window_miss_max = std::max(r.window_miss_max, e);
    }
  }
  if (best_times[0] && best_times[1]) {
    r3.worse_sum += excess(best_times[0], best_times[1]);
    r3.equal += best_times[0] == best_times[1];
    r3.single_sum += static_cast<double>(*best_times[0]);
    r3.multi_sum += static_cast<double>(*best_times[1]);
    r3.same_worse_sum += excess(best_times[0], single_plan_multi);
    r3.same_equal += best_times[0] == single_plan_multi;
  }
}

struct Tables {
  Table t1, t2, t3, t4, misses;
  Json tables_1_2 = Json::array(), table_3 = Json::array();
};

void add_mode_rows(Tables& tables, std::size_t row, std::int64_t count, const ModeRow (&rows)[2]) {
  const std::int64_t n = static_cast<std::int64_t>(kSizes[row]);
  for (int m = 0; m < 2; ++m) {
    const ModeRow& r = rows[m];
    const PublishedModeRow& paper = (m == 0 ? kPaperTable1 : kPaperTable2)[row];
    (m == 0 ? tables.t1 : tables.t2)
        .rows.push_back(
            {n, count_pct(r.linear_opt, count), count_pct(r.traffic_opt, count),
             count_pct(r.all, count), count_pct(r.opt_only, count),
             pct(r.opt_only ? r.extra_traffic_window / r.opt_only : 0.0),
             pct(r.opt_only ? r.extra_traffic_true / r.opt_only : 0.0),
             pct(r.worse_count ? r.worse_sum / r.worse_count : 0.0),
             count_pct(paper.linear_opt, kPaperInstances),
             count_pct(paper.traffic_opt, kPaperInstances), count_pct(paper.all, kPaperInstances),
             count_pct(paper.opt, kPaperInstances), fmt::format("{}%", paper.traffic_pct),
             fmt::format("{}%", paper.worse_pct)});
    tables.misses.rows.push_back({n, m == 0 ? "single" : "multi", count_pct(r.window_misses, count),
                                  pct(r.window_misses ? r.window_miss_sum / r.window_misses : 0.0),
                                  pct(r.window_miss_max),
                                  pct(count ? r.window_miss_sum / count : 0.0)});
    tables.tables_1_2.push_back({{"n", n},
                                 {"mode", m == 0 ? "single" : "multi"},
                                 {"linear_opt", r.linear_opt},
                                 {"traffic_opt", r.traffic_opt},
                                 {"all", r.all},
                                 {"opt_only", r.opt_only},
                                 {"window_misses", r.window_misses},
                                 {"paper",
                                  {{"instances", kPaperInstances},
                                   {"linear_opt", paper.linear_opt},
                                   {"traffic_opt", paper.traffic_opt},
                                   {"all", paper.all},
                                   {"opt_only", paper.opt},
                                   {"extra_traffic_pct", paper.traffic_pct},
                                   {"worse_pct", paper.worse_pct}}}});
  }
}

void add_table3_row(Tables& tables, std::size_t n, std::int64_t count, const Table3Row& r3) {
  const double c3 = static_cast<double>(std::max<std::int64_t>(count, 1));
  const PublishedTable3Row* paper = paper_table3(n);
  const Json paper_worse = paper ? Json(paper->worse) : Json("not published");
  const Json paper_equal = paper ? Json(paper->equal) : Json("not published");
  tables.t3.rows.push_back({static_cast<std::int64_t>(n), pct(r3.worse_sum / c3), r3.equal,
                            std::round(r3.single_sum / c3 * 100) / 100,
                            std::round(r3.multi_sum / c3 * 100) / 100, pct(r3.same_worse_sum / c3),
                            r3.same_equal, paper_worse, paper_equal});
  tables.table_3.push_back({{"n", n},
                            {"worse", pct(r3.worse_sum / c3)},
                            {"equal", r3.equal},
                            {"paper_worse", paper_worse},
                            {"paper_equal", paper_equal}});
}

void describe_tables_1_3(Tables& tables) {
  const std::vector<std::string> columns{"n",
                                         "Linear=Opt",
                                         "Traffic=Opt",
                                         "All",
                                         "Opt",
                                         "+traffic (published)",
                                         "+traffic (optimal)",
                                         "% worse",
                                         "paper Linear=Opt",
                                         "paper Traffic=Opt",
                                         "paper All",
                                         "paper Opt",
                                         "paper +traffic",
                                         "paper % worse"};
  tables.t1.title = "LAU Table 1 rerun: single-send mode";
  tables.t2.title = "LAU Table 2 rerun: multi-send mode";
  tables.t1.columns = tables.t2.columns = columns;
  tables.t3.title = "LAU Table 3 rerun: optimal single-send vs optimal multi-send";
  tables.t3.columns = {"n",
                       "% worse",
                       "#equal",
                       "mean T_s*",
                       "mean T_m*",
                       "% worse (same schedule)",
                       "#equal (same schedule)",
                       "paper % worse",
                       "paper #equal"};
  tables.misses.title =
      "How often the published Optimal algorithm (optimal-window) misses the optimum";
  tables.misses.columns = {"n",          "mode",
                           "misses",     "mean excess when missed",
                           "max excess", "mean excess over all instances"};
}

void add_notes_1_3(Tables& tables, std::int64_t count, std::uint64_t seed) {
  const std::string draw_note = fmt::format(
      "{} instances per row; loads i.i.d. uniform in {{0..100}}, redrawn until their sum is "
      "divisible by n (seed {}).",
      count, seed);
  const std::string paper_note =
      "paper: the values LAU prints (50,000 instances per row; Optimal is its algorithm).";
  for (Table* t : {&tables.t1, &tables.t2}) {
    t->notes = {draw_note,
                "Opt: neither Linear nor Traffic is optimal (the paper's Opt column). All: Linear, "
                "Traffic and the published Optimal algorithm (optimal-window) are all optimal.",
                "+traffic: mean extra traffic over the Traffic schedule on the Opt instances, of "
                "the published algorithm's schedule and of redist's `optimal`.",
                "% worse: mean (T - T_opt) / T_opt over the non-optimal Linear and Traffic "
                "schedules; T_opt is the true optimum (redist `optimal`).",
                paper_note};
  }
  tables.t3.notes = {draw_note,
                     "% worse: mean over all instances of (T_s* - T_m*) / T_m*, T_s* and T_m* the "
                     "optimal single-send and multi-send times; #equal: instances with T_s* = "
                     "T_m*.",
                     "same schedule: the T_s-optimal schedule executed in both modes, (T_s - T_m) "
                     "/ T_m and T_s = T_m counted on that one schedule.",
                     paper_note};
  tables.misses.notes = {draw_note,
                         "excess: (T_window - T_opt) / T_opt, T_opt from redist `optimal`."};
}

void tables_1_3(Tables& tables, const LauExperimentOptions& options, Progress& progress) {
  const std::int64_t count = options.instances;
  describe_tables_1_3(tables);
  for (std::size_t row = 0; row < std::size(kSizes); ++row) {
    const std::size_t n = kSizes[row];
    progress.stage(fmt::format("row {}/{} (Tables 1-3, n = {})", row + 1, kRows, n), count);
    std::mt19937_64 rng = row_rng(options.seed, n, 100);
    ModeRow rows[2];
    Table3Row r3;
    for (std::int64_t k = 0; k < count; ++k) {
      measure(draw(rng, n, 100), rows, r3);
      progress.advance();
    }
    add_mode_rows(tables, row, count, rows);
    add_table3_row(tables, n, count, r3);
  }
  add_notes_1_3(tables, count, options.seed);
}

// Microseconds spent planning every instance with `plan`, timed in blocks between which the
// progress advances.
template <typename Plan>
double time_plans(const std::vector<lau::Instance>& instances, Plan plan, Progress& progress) {
  using Clock = std::chrono::steady_clock;
  constexpr std::size_t kBlock = 1000;
  std::int64_t sink = 0;
  double micros = 0;
  for (std::size_t first = 0; first < instances.size(); first += kBlock) {
    const std::size_t last = std::min(instances.size(), first + kBlock);
    const auto start = Clock::now();
    for (std::size_t k = first; k < last; ++k) sink += plan(instances[k]).h;
    micros += std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    progress.advance(static_cast<std::int64_t>(last - first));
  }
  benchmark_sink = sink;
  return micros;
}

std::vector<nlohmann::ordered_json> table4_row(const LauExperimentOptions& options, std::size_t n,
                                               std::int64_t max_load, Progress& progress) {
  const std::int64_t count = options.instances;
  std::mt19937_64 rng = row_rng(options.seed, n, max_load);
  std::vector<lau::Instance> instances;
  instances.reserve(static_cast<std::size_t>(count));
  double total = 0, wl = 0, wt = 0;
  std::int64_t defined = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    instances.push_back(draw(rng, n, max_load));
    const lau::Instance& in = instances.back();
    for (auto l : in.loads) total += static_cast<double>(l);
    const auto linear = lau::linear_flows(in);
    wl += static_cast<double>(lau::deficit_window(in, linear).size());
    const lau::DeficitWindow w =
        lau::deficit_window(in, lau::shifted(linear, lau::traffic_shift(linear)));
    wt += static_cast<double>(w.size());
    defined += w.defined;
    progress.advance();
  }
  const double window_us = time_plans(
      instances, [](const lau::Instance& in) { return lau::plan_optimal_window(in, Mode::single); },
      progress);
  const double optimal_us = time_plans(
      instances, [](const lau::Instance& in) { return lau::plan_optimal(in, Mode::single); },
      progress);
  const double c = static_cast<double>(std::max<std::int64_t>(count, 1));
  return {static_cast<std::int64_t>(n),
          max_load,
          std::round(total / c),
          std::round(wl / c * 10) / 10,
          std::round(wt / c * 10) / 10,
          count_pct(defined, count),
          std::round(wt / static_cast<double>(std::max<std::int64_t>(defined, 1)) * 10) / 10,
          std::round(window_us / c * 100) / 100,
          std::round(optimal_us / c * 100) / 100};
}

// Table 4: runtimes and windows.
Table table4(const LauExperimentOptions& options, Progress& progress) {
  Table t4;
  t4.title = "LAU Table 4 rerun: the Optimal algorithm's runtime and windows (single-send)";
  t4.columns = {"n",
                "max load / proc.",
                "mean total load",
                "window (Linear)",
                "window (Traffic)",
                "Traffic windows defined",
                "window (Traffic, when defined)",
                "optimal-window time (us)",
                "optimal time (us)",
                "paper mean total load",
                "paper window (Linear)",
                "paper window (Traffic)",
                "paper time (ms)"};
  std::size_t row = 0;
  for (std::int64_t max_load : {200, 100, 40}) {
    for (std::size_t n : {10, 20, 50}) {
      progress.stage(fmt::format("row {}/{} (Table 4, n = {}, max load {})",
                                 std::size(kSizes) + row + 1, kRows, n, max_load),
                     3 * options.instances);
      std::vector<nlohmann::ordered_json> cells = table4_row(options, n, max_load, progress);
      const PublishedTable4Row& paper = kPaperTable4[row++];
      cells.insert(cells.end(),
                   {paper.total, paper.linear_window, paper.traffic_window, paper.milliseconds});
      t4.rows.push_back(std::move(cells));
    }
  }
  t4.notes = {
      fmt::format("{} instances per row, drawn as in Table 1 with the given maximum load.",
                  options.instances),
      "window: d_max - d_min + 1 of the red nodes' deficits of the Linear (resp. Traffic) "
      "schedule, 0 when there is no red node; times: wall clock per instance on this "
      "machine, including the Traffic schedule and the deficits.",
      "paper: LAU's values (its window column prints the Traffic window, then the Linear one in "
      "parentheses; times on a 167 MHz SPARC, in milliseconds)."};
  return t4;
}

}  // namespace

nlohmann::ordered_json run_lau_experiment(const LauExperimentOptions& options) {
  if (options.instances < 1 || options.instances > kLauExperimentMaxInstances) {
    throw InputError(fmt::format("instances per row must be in [1, {}], got {} (the paper's "
                                 "50000 take about 75 s); for more, run several --seed values",
                                 kLauExperimentMaxInstances, options.instances),
                     "--instances");
  }
  OutputDirectory out(options.out_dir);
  // Per row, Tables 1-3: one run per instance; Table 4: drawing, then two timed runs.
  Progress progress("lau", 0, "instance runs");
  Tables tables;
  tables_1_3(tables, options, progress);
  tables.t4 = table4(options, progress);
  progress.finish();
  out.write_table("lau_table1", tables.t1);
  out.write_table("lau_table2", tables.t2);
  out.write_table("lau_table3", tables.t3);
  out.write_table("lau_table4", tables.t4);
  out.write_table("lau_window_misses", tables.misses);
  return experiment_summary("lau", options.seed, options.instances, out,
                            {{"tables_1_2", tables.tables_1_2}, {"table_3", tables.table_3}});
}

}  // namespace redist::experiments
