// SLICE §6.4: Tables 5-6 (greedy against the optimum, per ring size q, Lyon and Strasbourg) and
// Figure 3 (processors used by the best solution as a function of W/H).
//
// The published rows are "the value of the objective function of the ILP of §5.2 (multiplied by
// 6000)", but their magnitudes fit no SliceRing objective of Tables 1-4 (see docs/slicering.md).
// They fit, closely but not exactly, 6000 x the ring sum of w_i (1/c_ij + 1/c_ji) over the ring's
// arcs i -> j: the paper's printed weight d_ij = (c_ij + c_ji)/w_i with speeds and bandwidths
// where the model has cycle-times and capacities. So each table carries the published rows, that
// "published units" objective (redist's greedy and exact minimum per q), and the true SliceRing
// optima (T_step with W = 1000, H = 1: greedy and exact per q).
#include "experiments/slicering/slicering_experiment.hpp"

#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "experiments/experiment_files.hpp"
#include "experiments/slicering/platforms.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/greedy.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {

namespace {

using slicering::Cluster;
using Arc = std::function<double(std::size_t, std::size_t)>;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Platform {
  std::string name, title, table_stem;
  Cluster cluster;
  std::vector<double> published_greedy;  // q = 3 .. p
  double published_pip = 0.0;            // q = p (PIP ran out of memory for every other q)
};

std::vector<Platform> platforms() {
  auto read = [](const char* text) { return io::read_cluster(io::parse_document(text)); };
  return {
      {"lyon",
       "Lyon",
       "table5_lyon",
       read(kLyonPlatformJson),
       {1202, 556, 1152, 906, 2240, 3238, 4236, 5234, 6232, 7230, 8228, 10077},
       9059},
      {"strasbourg",
       "Strasbourg",
       "table6_strasbourg",
       read(kStrasbourgPlatformJson),
       {1520, 2112, 3144, 3736, 4958, 5668, 7353, 8505, 10195, 12490, 15759},
       14757},
  };
}

// The "published units" arc weight: 6000 w_i (1/c_ij + 1/c_ji) for the ring arc i -> j.
Arc published_units(const Cluster& cl) {
  return [&cl](std::size_t i, std::size_t j) {
    return 6000.0 * cl.w[i] * (1.0 / cl.cost(i, j) + 1.0 / cl.cost(j, i));
  };
}

// Minimum directed cycle through exactly q processors, for every q (entry q; 0 and 1 unused):
// Held-Karp over subsets, the cycle starting at its lowest processor.
std::vector<double> min_cycle_per_size(std::size_t p, const Arc& arc) {
  const std::size_t n = std::size_t{1} << p;
  std::vector<double> dp(n * p, kInf), best(p + 1, kInf);
  for (std::size_t s = 0; s < p; ++s) dp[(std::size_t{1} << s) * p + s] = 0.0;
  for (std::size_t set = 1; set < n; ++set) {
    const auto s = static_cast<std::size_t>(std::countr_zero(set));
    const auto q = static_cast<std::size_t>(std::popcount(set));
    for (std::size_t j = 0; j < p; ++j) {
      const double v = dp[set * p + j];
      if (!(set >> j & 1) || v == kInf) continue;
      if (q >= 2) best[q] = std::min(best[q], v + arc(j, s));
      for (std::size_t k = s + 1; k < p; ++k) {
        if (set >> k & 1) continue;
        double& t = dp[(set | std::size_t{1} << k) * p + k];
        t = std::min(t, v + arc(j, k));
      }
    }
  }
  return best;
}

// SLICE §6.2's insertion greedy on a directed arc weight: start from the fastest processor,
// insert the processor and gap of least added cost; the cost of every size (entry q).
std::vector<double> greedy_cycle_per_size(const Cluster& cl, const Arc& arc) {
  const std::size_t p = cl.size();
  std::size_t first = 0;
  for (std::size_t i = 1; i < p; ++i) {
    if (cl.w[i] < cl.w[first]) first = i;
  }
  std::vector<std::size_t> ring{first};
  std::vector<char> used(p, 0);
  used[first] = 1;
  std::vector<double> cost(p + 1, kInf);
  double total = 0.0;
  for (std::size_t r = 1; r < p; ++r) {
    double best = kInf;
    std::size_t bi = 0, bk = 0;
    for (std::size_t i = 0; i < p; ++i) {
      if (used[i]) continue;
      for (std::size_t k = 0; k < r; ++k) {
        const std::size_t a = ring[k], b = ring[(k + 1) % r];
        const double added = r == 1 ? arc(a, i) + arc(i, a) : arc(a, i) + arc(i, b) - arc(a, b);
        if (added < best) best = added, bi = i, bk = k;
      }
    }
    ring.insert(ring.begin() + static_cast<std::ptrdiff_t>(bk) + 1, bi);
    used[bi] = 1;
    total += best;
    cost[r + 1] = total;
  }
  return cost;
}

// x rounded to 1/scale (scale 10: one decimal), as the nearest double of the decimal.
double round_to(double x, double scale) { return std::round(x * scale) / scale; }

nlohmann::ordered_json number_or_text(std::optional<double> x, const char* text) {
  return x ? nlohmann::ordered_json(*x) : nlohmann::ordered_json(text);
}

// SLICE Table 5 or 6 for one platform (the published rows beside ours); returns its results.
nlohmann::ordered_json platform_table(OutputDirectory& out, const Platform& pf) {
  const Cluster& cl = pf.cluster;
  const std::size_t p = cl.size();
  const Arc arc = published_units(cl);
  const std::vector<double> units_exact = min_cycle_per_size(p, arc);
  const std::vector<double> units_greedy = greedy_cycle_per_size(cl, arc);
  const auto start = std::chrono::steady_clock::now();
  const slicering::ExactTable exact = slicering::exact_table(cl);
  const double exact_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const slicering::GreedyTrace greedy = slicering::greedy_trace(cl);

  Table t;
  t.title = fmt::format(
      "SLICE Table {}: greedy against the optimum on the {} platform, per "
      "ring size q",
      pf.name == "lyon" ? 5 : 6, pf.title);
  t.columns.push_back("row");
  for (std::size_t q = 3; q <= p; ++q) t.columns.push_back(fmt::format("q = {}", q));
  auto add_row = [&](const std::string& label, auto&& value) {
    std::vector<nlohmann::ordered_json> row{label};
    for (std::size_t q = 3; q <= p; ++q) row.push_back(value(q));
    t.rows.push_back(std::move(row));
  };
  add_row("Greedy (SLICE, published)",
          [&](std::size_t q) { return nlohmann::ordered_json(pf.published_greedy[q - 3]); });
  add_row("PIP (SLICE, published)", [&](std::size_t q) {
    return number_or_text(q == p ? std::optional<double>(pf.published_pip) : std::nullopt,
                          "out of memory");
  });
  add_row("greedy, published units (redist)",
          [&](std::size_t q) { return nlohmann::ordered_json(round_to(units_greedy[q], 10)); });
  add_row("exact, published units (redist)",
          [&](std::size_t q) { return nlohmann::ordered_json(round_to(units_exact[q], 10)); });
  add_row("greedy T_step, W/H = 1000 (redist)", [&](std::size_t q) {
    return nlohmann::ordered_json(round_to(greedy.t_step_by_size[q - 1], 1e6));
  });
  add_row("exact T_step, W/H = 1000 (redist)", [&](std::size_t q) {
    return nlohmann::ordered_json(round_to(exact.by_size[q - 1]->makespan, 1e6));
  });
  t.notes.push_back(
      "Published units: 6000 x the ring sum of w_i (1/c_ij + 1/c_ji) over ring arcs i -> j "
      "(speeds and bandwidths in the paper's printed d_ij); redist's greedy is SLICE §6.2 on "
      "that weight, exact its minimum over all rings of q processors (Held-Karp).");
  t.notes.push_back(fmt::format(
      "T_step rows: the SliceRing model (docs/slicering.md) with W = 1000, H = 1; the best ring "
      "of any "
      "size has {} processors, T_step = {:.6f} (exact) and {:.6f} (greedy). exact for all q "
      "took {:.3f} s.",
      exact.best.ring.size(), exact.best.makespan, greedy.best.makespan, exact_seconds));
  t.notes.push_back(fmt::format(
      "Full ring: published PIP {} vs exact in published units {:.1f} ({:+.2f}%).",
      pf.published_pip, units_exact[p], 100.0 * (units_exact[p] / pf.published_pip - 1.0)));
  out.write_table(pf.table_stem, t);

  nlohmann::ordered_json r;
  r["full_ring_published_pip"] = pf.published_pip;
  r["full_ring_exact_published_units"] = round_to(units_exact[p], 10);
  r["exact_all_q_seconds"] = exact_seconds;
  r["best_q"] = exact.best.ring.size();
  r["best_t_step"] = exact.best.makespan;
  int below = 0;
  for (std::size_t q = 3; q <= p; ++q) below += pf.published_greedy[q - 3] < units_exact[q] - 0.5;
  r["published_greedy_cells_below_exact_published_units"] = below;
  return r;
}

// Figure 3's W/H values: 10^(k/10) for k = -10 .. 50 (quick: every tenth).
std::vector<double> figure3_ratios(bool quick) {
  std::vector<double> ratios;
  const int lo = -10, hi = 50, step = quick ? 10 : 1;
  for (int k = lo; k <= hi; k += step) ratios.push_back(std::pow(10.0, k / 10.0));
  return ratios;
}

std::string figure3(const Platform& platform, const std::vector<double>& ratios,
                    const std::vector<double>& greedy, const std::vector<double>& exact) {
  svg::LinePlot plot;
  plot.title =
      fmt::format("SLICE Figure 3, {} platform: processors used by the best ring", platform.title);
  plot.x_label = "W/H";
  plot.y_label = "processors in the best ring";
  plot.log_x = true;
  plot.y_min = 0.0;
  plot.y_max = static_cast<double>(platform.cluster.size()) + 1.0;
  plot.series.push_back({"greedy (SLICE §6.2)", ratios, greedy, true, true});
  plot.series.push_back({"exact (optimum)", ratios, exact, true, false});
  if (platform.name == "lyon") {
    plot.caption =
        "paper: SLICE §6.4 states that on Lyon the greedy's processor count jumps from 1 to 14 as "
        "W/H grows; it prints no W/H value, so no published point is drawn.";
  }
  return svg::render_line_plot(plot);
}

// Figure 3: processors used by the best solution, as a function of W/H (H = 1), greedy and
// exact; writes the table and one figure per platform.
Table figure3_table(OutputDirectory& out, const std::vector<Platform>& cases,
                    const std::vector<double>& ratios, Progress& progress) {
  Table f;
  f.title = "SLICE Figure 3: processors used by the best solution, as a function of W/H";
  f.columns = {"W/H"};
  for (const Platform& pf : cases) {
    f.columns.push_back(pf.title + " greedy");
    f.columns.push_back(pf.title + " exact");
  }
  std::vector<std::vector<double>> used(2 * cases.size());
  for (double ratio : ratios) {
    std::vector<nlohmann::ordered_json> row{round_to(ratio, 1e6)};
    for (std::size_t c = 0; c < cases.size(); ++c) {
      Cluster cl = cases[c].cluster;
      cl.W = ratio;
      cl.H = 1.0;
      const std::size_t g = slicering::plan_greedy(cl).ring.size();
      const std::size_t e = slicering::plan_exact(cl).ring.size();
      used[2 * c].push_back(static_cast<double>(g));
      used[2 * c + 1].push_back(static_cast<double>(e));
      row.push_back(g);
      row.push_back(e);
    }
    f.rows.push_back(std::move(row));
    progress.advance();
  }
  f.notes.push_back(
      "W/H = 10^(k/10); H = 1. SLICE plots the greedy heuristic only and prints no value of it; "
      "its text says that on Lyon the count jumps from 1 to 14.");
  out.write_table("figure3", f);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    out.write_text("figure3_" + cases[c].name + ".svg",
                   figure3(cases[c], ratios, used[2 * c], used[2 * c + 1]));
  }
  return f;
}

}  // namespace

nlohmann::ordered_json run_slicering_experiment(const std::string& out_dir, bool quick) {
  OutputDirectory out(out_dir);
  // Steps: the two platforms' tables, then every W/H of Figure 3.
  Progress progress("slicering", 2 + static_cast<std::int64_t>(figure3_ratios(quick).size()),
                    "steps");
  nlohmann::ordered_json results = nlohmann::ordered_json::object();
  std::vector<Platform> cases = platforms();

  for (const Platform& pf : cases) {
    results[pf.name] = platform_table(out, pf);
    progress.advance();
  }

  const std::vector<double> ratios = figure3_ratios(quick);
  Table f = figure3_table(out, cases, ratios, progress);
  progress.finish();
  results["figure3"] = rows_as_objects(f);
  return experiment_summary("slicering", std::nullopt, std::nullopt, out, std::move(results));
}

}  // namespace redist::experiments
