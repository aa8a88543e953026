#include "experiments/exchange/smpi_experiment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "experiments/ring_sim/subprocess.hpp"
#include "redist/common/error.hpp"
#include "redist/svg/line_plot.hpp"

namespace redist::experiments {
namespace {

namespace fs = std::filesystem;

struct Setting {
  const char* stem;   // table file stem
  const char* key;    // key in the results
  const char* label;  // in titles
  bool crosstraffic;
};

constexpr Setting kSettings[] = {
    {"smpi_exchange", "tcp", "SimGrid's default, with acknowledgement traffic", true},
    {"smpi_exchange_no_crosstraffic", "no_crosstraffic", "without acknowledgement traffic", false},
};

std::string find_script(const ExchangeSmpiOptions& o) {
  const std::string script =
      o.script.empty() ? executable_directory() + "/smpi_exchange.py" : o.script;
  if (!fs::exists(script)) {
    throw InputError(
        fmt::format("{} not found (a build with SimGrid puts it beside redist)", script),
        "exchange");
  }
  return script;
}

// Runs the script once; its rows (smpi_exchange.py --json).
nlohmann::ordered_json run_script(const ExchangeSmpiOptions& o, const std::string& script,
                                  const Setting& s, const fs::path& json_path) {
  std::vector<std::string> argv = {script,   fs::path(script).parent_path().string(),
                                   "--seed", std::to_string(o.seed),
                                   "--json", json_path.string()};
  if (o.quick) argv.push_back("--quick");
  if (!s.crosstraffic) argv.push_back("--no-crosstraffic");
  const ProgramResult r = run_program(argv);
  if (r.exit_code != 0) {
    const std::string why = last_error_line(r.err);
    throw StepFailed(fmt::format("the SMPI measurements ({}) failed: smpi_exchange.py exited with "
                                 "code {}{}",
                                 s.label, r.exit_code, why.empty() ? "" : ": " + why),
                     "smpi_exchange.py");
  }
  std::ifstream in(json_path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fs::remove(json_path);
  return nlohmann::ordered_json::parse(text);
}

double milliseconds(const nlohmann::ordered_json& seconds) {
  return rounded(seconds.get<double>() * 1e3, 3);
}

double ratio(const nlohmann::ordered_json& x) { return rounded(x.get<double>(), 4); }

Table table_of(const nlohmann::ordered_json& run, const Setting& s) {
  Table t;
  t.title = fmt::format("Exchange plans on SMPI, seed {} ({})", run["seed"].get<int>(), s.label);
  t.columns = {"platform",
               "pattern",
               "MB moved",
               "bound (ms)",
               "redist plan",
               "model (ms)",
               "redist (ms)",
               "redist / model",
               "MPI_Alltoallv (ms)",
               "caterpillar (ms)",
               "posted (ms)",
               "Alltoallv / redist",
               "caterpillar / redist",
               "posted / redist"};
  for (const auto& r : run["rows"]) {
    t.rows.push_back(
        {r["platform"], r["pattern"], rounded(r["megabytes"].get<double>(), 1),
         milliseconds(r["lower_bound"]),
         fmt::format("{} ({} pieces)", r["algorithm"].get<std::string>(), r["pieces"].get<int>()),
         milliseconds(r["model"]), milliseconds(r["redist"]), ratio(r["redist_over_model"]),
         milliseconds(r["alltoallv"]), milliseconds(r["caterpillar"]), milliseconds(r["posted"]),
         ratio(r["alltoallv_over_redist"]), ratio(r["caterpillar_over_redist"]),
         ratio(r["posted_over_redist"])});
  }
  t.notes.push_back(fmt::format(
      "Instance bandwidths: the platform's times {:.4f}, the share of its bandwidth a host gets "
      "when it sends and receives at once (measured first).",
      run["bandwidth_share"].get<double>()));
  return t;
}

// One figure: `field` of every row, a category per pattern (named), a series per platform and
// setting: the platform gives the marker's shape, the setting the colour's family.
std::string figure(const std::vector<nlohmann::ordered_json>& runs, const char* field,
                   const std::string& title, const std::string& y_label) {
  svg::LinePlot plot;
  plot.title = title;
  plot.x_label = "pattern";
  plot.y_label = y_label;
  std::vector<std::string> platforms;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& r : runs[k]["rows"]) {
      const std::string name = r["pattern"].get<std::string>();
      auto at = std::find(plot.x_categories.begin(), plot.x_categories.end(), name);
      if (at == plot.x_categories.end()) at = plot.x_categories.insert(at, name);
      const std::string platform = r["platform"].get<std::string>();
      auto p = std::find(platforms.begin(), platforms.end(), platform);
      if (p == platforms.end()) p = platforms.insert(p, platform);
      const std::string label =
          fmt::format("{}{}", platform, kSettings[k].crosstraffic ? "" : ", no acknowledgements");
      auto series = std::find_if(plot.series.begin(), plot.series.end(),
                                 [&](const svg::Series& s) { return s.label == label; });
      if (series == plot.series.end()) {
        constexpr svg::MarkerShape kShapes[] = {svg::MarkerShape::circle, svg::MarkerShape::square,
                                                svg::MarkerShape::triangle,
                                                svg::MarkerShape::rhombus};
        svg::Series added;
        added.label = label;
        added.markers = true;
        added.line = false;  // patterns are categories, not a sequence
        added.shape = kShapes[static_cast<std::size_t>(p - platforms.begin()) % std::size(kShapes)];
        plot.series.push_back(added);
        series = plot.series.end() - 1;
      }
      series->x.push_back(static_cast<double>(at - plot.x_categories.begin()));
      series->y.push_back(r[field].get<double>());
    }
  }
  return svg::render_line_plot(plot);
}

std::string speedup_figure(const std::vector<nlohmann::ordered_json>& runs) {
  return figure(runs, "alltoallv_over_redist",
                "MPI_Alltoallv's time over redist's, under SMPI (above 1: redist faster)",
                "MPI_Alltoallv time / redist time");
}

std::string model_figure(const std::vector<nlohmann::ordered_json>& runs) {
  return figure(runs, "redist_over_model",
                "redist's measured time over its plan's model makespan, under SMPI",
                "measured / model");
}

}  // namespace

nlohmann::ordered_json run_exchange_smpi(const ExchangeSmpiOptions& o, OutputDirectory& out) {
  const std::string script = find_script(o);
  std::vector<nlohmann::ordered_json> runs;
  nlohmann::ordered_json results;
  for (const Setting& s : kSettings) {
    const fs::path scratch =
        fs::temp_directory_path() / fmt::format("redist-smpi-{}-{}.json", s.key, ::getpid());
    runs.push_back(run_script(o, script, s, scratch));
    out.write_table(s.stem, table_of(runs.back(), s));
    results[s.key] = runs.back();
  }
  out.write_text("smpi_exchange_speedup.svg", speedup_figure(runs));
  out.write_text("smpi_exchange_model.svg", model_figure(runs));
  return results;
}

std::pair<std::string, std::string> smpi_exchange_figures(
    const nlohmann::ordered_json& with_acknowledgements,
    const nlohmann::ordered_json& without_acknowledgements) {
  // The tables' rows as the script's rows: the fields the figures read.
  std::vector<nlohmann::ordered_json> runs;
  for (const nlohmann::ordered_json* table : {&with_acknowledgements, &without_acknowledgements}) {
    const auto& columns = table->at("columns");
    const auto column = [&](const std::string& name) {
      for (std::size_t c = 0; c < columns.size(); ++c)
        if (columns[c].get<std::string>() == name) return c;
      throw InputError(fmt::format("the SMPI table has no column \"{}\"", name), "table");
    };
    const std::size_t platform = column("platform"), pattern = column("pattern"),
                      model = column("redist / model"), alltoallv = column("Alltoallv / redist");
    nlohmann::ordered_json run;
    run["rows"] = nlohmann::ordered_json::array();
    for (const auto& row : table->at("rows")) {
      run["rows"].push_back({{"platform", row.at(platform)},
                             {"pattern", row.at(pattern)},
                             {"redist_over_model", row.at(model)},
                             {"alltoallv_over_redist", row.at(alltoallv)}});
    }
    runs.push_back(std::move(run));
  }
  return {speedup_figure(runs), model_figure(runs)};
}

}  // namespace redist::experiments
