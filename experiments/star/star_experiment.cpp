#include "experiments/star/star_experiment.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "redist/common/error.hpp"
#include "redist/star/bba.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/star/rbsa.hpp"
#include "redist/star/validate.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {

namespace {

using star::Instance;
using star::PlatformType;
using star::Range;
using star::Schedule;

constexpr std::array<const char*, 3> kNames{"BBA", "MBBSA", "R-BSA"};

// STAR Table 1: mean distance (BBA, MBBSA, R-BSA) then standard deviation, rows in the order
// (links, computation, range) of `configurations()`.
constexpr double kPaper[12][6] = {
    {1, 1, 1.0014, 0, 0, 0.0107},                      // Hom Hom
    {1, 1, 1.0061, 0, 0, 0.0234},                      // Hom Hom c<=w
    {1, 1, 1, 0, 0, 0},                                // Hom Hom c>=w
    {1.0000, 1, 1.0068, 0.0006, 0, 0.0181},            // Hom Het
    {1.0003, 1, 1.0186, 0.0010, 0, 0.0395},            // Hom Het c<=w
    {1, 1, 1.0017, 0, 0, 0.0040},                      // Hom Het c>=w
    {1.1894, 1.0074, 1.0058, 0.4007, 0.0208, 0.0173},  // Het Hom
    {1.0318, 1.0049, 1.0145, 0.0483, 0.0131, 0.0369},  // Het Hom c<=w
    {1.0291, 1.0025, 1.0024, 0.0415, 0.0097, 0.0095},  // Het Hom c>=w
    {1.2100, 1.0127, 1.0099, 0.3516, 0.0327, 0.0284},  // Het Het
    {1.0296, 1.0055, 1.0189, 0.0450, 0.0127, 0.0407},  // Het Het c<=w
    {1.0261, 1.0045, 1.0046, 0.0384, 0.0118, 0.0121},  // Het Het c>=w
};

std::vector<PlatformType> configurations() {
  std::vector<PlatformType> out;
  for (bool hom_links : {true, false}) {
    for (bool hom_comp : {true, false}) {
      for (Range r : {Range::general, Range::c_le_w, Range::c_ge_w}) {
        out.push_back({hom_links, hom_comp, r});
      }
    }
  }
  return out;
}

std::array<Schedule, 3> run_heuristics(const Instance& in) {
  std::array<Schedule, 3> s{star::plan_bba(in), star::plan_mbbsa(in), star::plan_rbsa(in)};
  for (const Schedule& x : s) {
    const auto v = star::check(in, x);
    if (!v.valid) throw std::runtime_error("invalid " + x.algorithm + " schedule: " + v.reason);
  }
  return s;
}

double round6(double x) { return std::round(x * 1e6) / 1e6; }

struct Stats {
  double mean = 0, sd = 0;
};

Stats stats(const std::vector<double>& v) {
  Stats s;
  if (v.empty()) return s;
  for (double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (double x : v) s.sd += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(s.sd / static_cast<double>(v.size()));
  return s;
}

int figure_number(const PlatformType& t) {
  return t.homogeneous_links ? (t.homogeneous_computation ? 22 : 23)
                             : (t.homogeneous_computation ? 24 : 25);
}

char figure_panel(const PlatformType& t) {
  return t.range == Range::general ? 'a' : t.range == Range::c_le_w ? 'b' : 'c';
}

std::string figure_name(const PlatformType& t) {
  return fmt::format("figure{}{}.svg", figure_number(t), figure_panel(t));
}

std::string type_title(const PlatformType& t) {
  std::string s =
      fmt::format("{} links, {} computation", t.homogeneous_links ? "homogeneous" : "heterogeneous",
                  t.homogeneous_computation ? "homogeneous" : "heterogeneous");
  if (t.range == Range::c_le_w) s += ", faster communicating (c <= w)";
  if (t.range == Range::c_ge_w) s += ", faster computing (c >= w)";
  return s;
}

// The only value STAR prints for Figures 22-25 (§4.3): in Figure 22(b), "about 93% of the
// schedules of R-BSA differ less than 3% from the best schedule".
constexpr double kPaperDistance = 3, kPaperShare = 93;
constexpr std::size_t kPaperAlgorithm = 2;  // R-BSA
bool has_paper_point(const PlatformType& t) {
  return figure_number(t) == 22 && figure_panel(t) == 'b';
}

// Cumulative share of platforms (%) within a distance (%) of the best, one step per distinct
// distance.
svg::Series distribution(const char* name, std::vector<double> d) {
  std::sort(d.begin(), d.end());
  svg::Series series;
  series.label = name;
  series.step = true;
  for (std::size_t k = 0; k < d.size(); ++k) {
    if (k + 1 < d.size() && d[k + 1] == d[k]) continue;
    series.x.push_back(100 * (d[k] - 1));
    series.y.push_back(100.0 * static_cast<double>(k + 1) / static_cast<double>(d.size()));
  }
  return series;
}

// Shares run up to 100%: the y axis spans at least 95-100% (down to the lowest share), with a
// margin of 12% of that span on both sides so that curves at 100% stay well off the frame; the x
// axis spans at least 0-1% (all platforms at distance 0 would otherwise make a range of nothing),
// with 4% of it free on the left.
void set_ranges(svg::LinePlot& plot) {
  double lowest = 95, farthest = 1;
  for (const svg::Series& s : plot.series) {
    for (double y : s.y) lowest = std::min(lowest, y);
    for (double x : s.x) farthest = std::max(farthest, x);
  }
  const double margin = 0.12 * (100 - lowest);
  plot.y_min = lowest - margin;
  plot.y_max = 100 + margin;
  plot.x_min = -0.04 * farthest;
  plot.x_max = 1.04 * farthest;
}

std::string figure(const PlatformType& type, const std::array<std::vector<double>, 3>& distance) {
  svg::LinePlot plot;
  plot.title = fmt::format("STAR Figure {}({}): distance to the best, {}", figure_number(type),
                           figure_panel(type), type_title(type));
  plot.x_label = "distance to the best (%)";
  plot.y_label = "share of platforms within that distance (%)";
  for (std::size_t a = 0; a < 3; ++a) plot.series.push_back(distribution(kNames[a], distance[a]));
  if (has_paper_point(type)) {
    plot.series.push_back({"paper",
                           {kPaperDistance},
                           {kPaperShare},
                           false,
                           true,
                           false,
                           svg::MarkerShape::diamond,
                           "#000000"});
    plot.caption =
        "paper: STAR §4.3 states that about 93% of R-BSA's schedules are within 3% of the best "
        "here, the only value it prints for Figures 22-25.";
  }
  const bool all_best = std::all_of(distance.begin(), distance.end(), [](const auto& d) {
    return std::all_of(d.begin(), d.end(), [](double v) { return v == 1; });
  });
  if (all_best) {
    plot.caption += std::string(plot.caption.empty() ? "" : " ") +
                    "Every algorithm finds the best schedule on every platform of this type: the "
                    "three curves coincide at 100% from distance 0.";
  }
  set_ranges(plot);
  return svg::render_line_plot(plot);
}

constexpr double kShareDistances[] = {0, 1, 2, 3, 5, 10, 20, 40};

// One row per algorithm: share of platforms (%) within each of kShareDistances of the best.
void add_share_rows(Table& shares, const PlatformType& type,
                    const std::array<std::vector<double>, 3>& distance) {
  for (std::size_t a = 0; a < 3; ++a) {
    std::vector<nlohmann::ordered_json> row{
        fmt::format("{}({})", figure_number(type), figure_panel(type)), kNames[a]};
    for (double x : kShareDistances) {
      const auto within = std::count_if(distance[a].begin(), distance[a].end(),
                                        [x](double d) { return d <= 1 + x / 100 + 1e-9; });
      row.push_back(round6(100.0 * static_cast<double>(within) /
                           static_cast<double>(std::max<std::size_t>(distance[a].size(), 1))));
    }
    row.push_back(has_paper_point(type) && a == kPaperAlgorithm
                      ? nlohmann::ordered_json(
                            fmt::format("about {}% within {}%", kPaperShare, kPaperDistance))
                      : nlohmann::ordered_json(""));
    shares.rows.push_back(std::move(row));
  }
}

Table share_table(const StarExperimentOptions& o) {
  Table t;
  t.title = "STAR Figures 22-25 rerun: share of platforms (%) within a distance of the best";
  t.columns = {"figure", "algorithm"};
  for (double x : kShareDistances) t.columns.push_back(fmt::format("within {}%", x));
  t.columns.push_back("paper");
  t.notes.push_back(fmt::format(
      "{} random platforms per figure (seed {}); paper: the value STAR §4.3 states in its text.",
      o.instances, o.seed));
  return t;
}

Table table1_header(const StarExperimentOptions& o) {
  Table table1;
  table1.title = "STAR Table 1 rerun: mean distance from the best and standard deviation";
  table1.columns = {"Comm.",
                    "Comp.",
                    "Range",
                    "BBA mean",
                    "MBBSA mean",
                    "R-BSA mean",
                    "BBA sd",
                    "MBBSA sd",
                    "R-BSA sd",
                    "paper BBA mean",
                    "paper MBBSA mean",
                    "paper R-BSA mean",
                    "paper BBA sd",
                    "paper MBBSA sd",
                    "paper R-BSA sd"};
  table1.notes.push_back(fmt::format(
      "{} random platforms per row (seed {}), 3 to 10 workers, 50 to 150 tasks; distance = "
      "makespan / best makespan of the three; population standard deviation.",
      o.instances, o.seed));
  return table1;
}

Table optimum_header(const StarExperimentOptions& o) {
  Table optimum;
  optimum.title = "Distance to the optimum (exact) on small platforms";
  optimum.columns = {"Comm.",         "Comp.",           "Range",           "platforms",
                     "BBA mean",      "MBBSA mean",      "R-BSA mean",      "best-of-3 mean",
                     "BBA optimal %", "MBBSA optimal %", "R-BSA optimal %", "best-of-3 optimal %",
                     "best-of-3 max"};
  optimum.notes.push_back(fmt::format(
      "{} random platforms per row (seed {}), 2 to 5 workers, 4 to 14 tasks; distance = "
      "makespan / optimum (exact); platforms the exact search refuses are skipped.",
      o.small_instances, o.seed));
  return optimum;
}

// Distances to the best of the three heuristics on `instances` random platforms of a type; in
// `lazy`, the makespan of mbbsa-lazy over MBBSA's on each platform.
std::array<std::vector<double>, 3> distances_to_best(const StarExperimentOptions& o,
                                                     const PlatformType& type, std::size_t row,
                                                     Progress& progress,
                                                     std::vector<double>& lazy) {
  std::mt19937_64 rng(o.seed * 1000003 + row);
  std::array<std::vector<double>, 3> distance;
  for (std::int64_t k = 0; k < o.instances; ++k) {
    const Instance in = star::random_instance(rng, type);
    const auto s = run_heuristics(in);
    const double best = std::min({s[0].makespan, s[1].makespan, s[2].makespan});
    for (std::size_t a = 0; a < 3; ++a)
      distance[a].push_back(best > 0 ? s[a].makespan / best : 1.0);
    const Schedule l = star::plan_mbbsa_lazy(in);
    const auto v = star::check(in, l);
    if (!v.valid) throw std::runtime_error("invalid mbbsa-lazy schedule: " + v.reason);
    lazy.push_back(s[1].makespan > 0 ? l.makespan / s[1].makespan : 1.0);
    progress.advance();
  }
  return distance;
}

Table lazy_header(const StarExperimentOptions& o) {
  Table t;
  t.title = "MBBSA (STAR Algorithm 3) against mbbsa-lazy (Moore's scan stopped early)";
  t.columns = {"Comm.",           "Comp.",          "Range",
               "platforms",       "lazy better %",  "lazy worse %",
               "mean lazy/MBBSA", "min lazy/MBBSA", "max lazy/MBBSA"};
  t.notes.push_back(fmt::format(
      "The platforms of table1 ({} per row, seed {}); ratio = makespan of mbbsa-lazy / makespan "
      "of mbbsa (< 1: the lazy variant is better).",
      o.instances, o.seed));
  return t;
}

void add_lazy_row(Table& t, const std::vector<nlohmann::ordered_json>& type_cells,
                  const std::vector<double>& ratio) {
  const double n = static_cast<double>(std::max<std::size_t>(ratio.size(), 1));
  const auto better = std::count_if(ratio.begin(), ratio.end(), [](double x) { return x < 1; });
  const auto worse = std::count_if(ratio.begin(), ratio.end(), [](double x) { return x > 1; });
  const auto [lo, hi] = std::minmax_element(ratio.begin(), ratio.end());
  t.rows.push_back({type_cells[0], type_cells[1], type_cells[2],
                    static_cast<std::int64_t>(ratio.size()),
                    round6(100.0 * static_cast<double>(better) / n),
                    round6(100.0 * static_cast<double>(worse) / n), round6(stats(ratio).mean),
                    ratio.empty() ? 1.0 : round6(*lo), ratio.empty() ? 1.0 : round6(*hi)});
}

// Small platforms: the optimum's row (the first three cells are the platform type's).
void add_optimum_row(Table& optimum, const StarExperimentOptions& o, const PlatformType& type,
                     std::size_t row, const std::vector<nlohmann::ordered_json>& type_cells,
                     Progress& progress) {
  std::mt19937_64 small_rng(o.seed * 7919 + row);
  std::array<std::vector<double>, 4> to_opt;
  std::int64_t refused = 0;
  for (std::int64_t k = 0; k < o.small_instances; ++k) {
    progress.advance();
    const Instance in = star::random_instance(small_rng, type, {2, 5, 4, 14});
    Schedule e;
    try {
      e = star::plan_exact(in);
    } catch (const InputError&) {
      ++refused;
      continue;
    }
    if (!e.optimal) {  // stopped at its node cap: not an optimum
      ++refused;
      continue;
    }
    const auto s = run_heuristics(in);
    const double best = std::min({s[0].makespan, s[1].makespan, s[2].makespan});
    for (std::size_t a = 0; a < 3; ++a)
      to_opt[a].push_back(e.makespan > 0 ? s[a].makespan / e.makespan : 1.0);
    to_opt[3].push_back(e.makespan > 0 ? best / e.makespan : 1.0);
  }
  std::vector<nlohmann::ordered_json> orow{type_cells[0], type_cells[1], type_cells[2],
                                           static_cast<std::int64_t>(to_opt[3].size())};
  for (std::size_t a = 0; a < 4; ++a) orow.push_back(round6(stats(to_opt[a]).mean));
  for (std::size_t a = 0; a < 4; ++a) {
    const auto optimal =
        std::count_if(to_opt[a].begin(), to_opt[a].end(), [](double x) { return x <= 1 + 1e-9; });
    orow.push_back(to_opt[a].empty() ? 0.0
                                     : round6(100.0 * static_cast<double>(optimal) /
                                              static_cast<double>(to_opt[a].size())));
  }
  orow.push_back(to_opt[3].empty() ? 1.0
                                   : round6(*std::max_element(to_opt[3].begin(), to_opt[3].end())));
  optimum.rows.push_back(orow);
  if (refused > 0)
    optimum.notes.push_back(
        fmt::format("row {}: {} platforms refused or not solved by exact", row + 1, refused));
}

}  // namespace

nlohmann::ordered_json run_star_experiment(const StarExperimentOptions& o) {
  OutputDirectory out(o.out_dir);
  const std::vector<PlatformType> types = configurations();
  Table table1 = table1_header(o), optimum = optimum_header(o), shares = share_table(o),
        lazy = lazy_header(o);
  Progress progress("star",
                    static_cast<std::int64_t>(types.size()) * (o.instances + o.small_instances),
                    "platforms");
  for (std::size_t row = 0; row < types.size(); ++row) {
    const PlatformType& type = types[row];
    std::vector<double> lazy_ratio;
    const auto distance = distances_to_best(o, type, row, progress, lazy_ratio);
    std::vector<nlohmann::ordered_json> cells{type.homogeneous_links ? "Hom" : "Het",
                                              type.homogeneous_computation ? "Hom" : "Het",
                                              star::to_string(type.range)};
    const std::vector<nlohmann::ordered_json> type_cells = cells;
    std::array<Stats, 3> st;
    for (std::size_t a = 0; a < 3; ++a) st[a] = stats(distance[a]);
    for (std::size_t a = 0; a < 3; ++a) cells.push_back(round6(st[a].mean));
    for (std::size_t a = 0; a < 3; ++a) cells.push_back(round6(st[a].sd));
    for (double p : kPaper[row]) cells.push_back(p);
    table1.rows.push_back(cells);
    add_share_rows(shares, type, distance);
    out.write_text(figure_name(type), figure(type, distance));
    add_optimum_row(optimum, o, type, row, type_cells, progress);
    add_lazy_row(lazy, type_cells, lazy_ratio);
  }
  progress.finish();
  out.write_table("table1", table1);
  out.write_table("figures22_25", shares);
  out.write_table("optimum", optimum);
  out.write_table("mbbsa_lazy", lazy);
  return experiment_summary("star", o.seed, o.instances, out,
                            {{"table1", rows_as_objects(table1)},
                             {"figures22_25", rows_as_objects(shares)},
                             {"optimum", rows_as_objects(optimum)},
                             {"mbbsa_lazy", rows_as_objects(lazy)}});
}

}  // namespace redist::experiments
