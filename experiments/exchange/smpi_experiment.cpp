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
    throw std::runtime_error(
        fmt::format("smpi_exchange.py ({}) failed with exit code {}: {}", s.label, r.exit_code,
                    r.err.substr(r.err.size() > 600 ? r.err.size() - 600 : 0)));
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

// One figure: `field` of every row, x = the pattern's number, a series per platform and setting.
std::string figure(const std::vector<nlohmann::ordered_json>& runs, const char* field,
                   const std::string& title, const std::string& y_label) {
  svg::LinePlot plot;
  plot.title = title;
  plot.x_label = "pattern";
  plot.y_label = y_label;
  std::vector<std::string> patterns;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& r : runs[k]["rows"]) {
      const std::string name = r["pattern"].get<std::string>();
      auto at = std::find(patterns.begin(), patterns.end(), name);
      if (at == patterns.end()) at = patterns.insert(at, name);
      const std::string label =
          fmt::format("{}{}", r["platform"].get<std::string>(),
                      kSettings[k].crosstraffic ? "" : ", no acknowledgements");
      auto series = std::find_if(plot.series.begin(), plot.series.end(),
                                 [&](const svg::Series& s) { return s.label == label; });
      if (series == plot.series.end()) {
        svg::Series added;
        added.label = label;
        added.markers = true;
        added.line = false;  // patterns are categories, not a sequence
        plot.series.push_back(added);
        series = plot.series.end() - 1;
      }
      series->x.push_back(static_cast<double>(at - patterns.begin() + 1));
      series->y.push_back(r[field].get<double>());
    }
  }
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    plot.caption += fmt::format("{}{} {}", i ? ", " : "Patterns: ", i + 1, patterns[i]);
  }
  return svg::render_line_plot(plot);
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
  out.write_text("smpi_exchange_speedup.svg",
                 figure(runs, "alltoallv_over_redist",
                        "MPI_Alltoallv's time over redist's, under SMPI (above 1: redist faster)",
                        "MPI_Alltoallv time / redist time"));
  out.write_text("smpi_exchange_model.svg",
                 figure(runs, "redist_over_model",
                        "redist's measured time over its plan's model makespan, under SMPI",
                        "measured / model"));
  return results;
}

}  // namespace redist::experiments
