// `redist experiment NAME [--out DIR] [--seed S] [--instances N] [--format text|json]`
// (docs/README.md): reruns a paper's experiment and writes its tables and figures. The experiments
// themselves are registered by their families (see ExperimentRegistry in cli.hpp).
#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/suggest.hpp"

namespace redist::cli {

namespace {

struct ExperimentArgs {
  std::string name;
  ExperimentOptions options;
  bool instances_given = false;  // --instances on the command line (0 stands for "not given")
  bool seeds_given = false;
  std::string format = "text";
};

// A value of the results in a few words: a number to 4 significant digits, a table's row count,
// the first values of a list.
std::string brief(const io::OrderedJson& value) {
  constexpr std::size_t kListed = 8;
  if (value.is_number_integer()) return value.dump();
  if (value.is_number()) return fmt::format("{:.4g}", value.get<double>());
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_null()) return "none";
  if (value.is_string()) return one_line(value.get<std::string>(), 80);
  if (value.is_array()) {
    if (value.empty()) return "none";
    if (value.front().is_structured()) return fmt::format("{} rows", value.size());
    std::vector<std::string> items;
    for (std::size_t i = 0; i < std::min(kListed, value.size()); ++i)
      items.push_back(brief(value[i]));
    if (value.size() > kListed) items.push_back(fmt::format("... ({} in all)", value.size()));
    return fmt::format("{}", fmt::join(items, " "));
  }
  return fmt::format("{} entries", value.size());
}

// One row per member of `results`, its objects opened two levels deep (indented below their key).
void describe(const io::OrderedJson& results, const std::string& indent, int depth,
              std::vector<std::vector<std::string>>& rows) {
  for (auto it = results.begin(); it != results.end(); ++it) {
    if (it.value().is_object() && !it.value().empty() && depth < 2) {
      rows.push_back({indent + it.key()});
      describe(it.value(), indent + "  ", depth + 1, rows);
    } else {
      rows.push_back({indent + it.key(), brief(it.value())});
    }
  }
}

}  // namespace

std::string experiment_text(const io::OrderedJson& summary, const Experiment& experiment,
                            const std::string& out_dir) {
  text::Summary text;
  text.line("redist experiment " + summary.at("experiment").get<std::string>());
  const io::OrderedJson& seed = summary.at("seed");
  text.field("seed", seed.is_null() ? "none (nothing drawn at random)" : brief(seed));
  const io::OrderedJson& instances = summary.at("instances");
  text.field("instances", instances.is_null()
                              ? "none (fixed instances)"
                              : brief(instances) + (experiment.simulated ? " scenarios per cell"
                                                                         : " per configuration"));
  const io::OrderedJson& results = summary.at("results");
  if (experiment.headline) {
    for (const auto& [label, value] : experiment.headline(results)) text.field(label, value);
  }
  text.blank();
  text.line("results (every value: --format json, or the tables written)");
  std::vector<std::vector<std::string>> rows;
  if (results.is_object()) describe(results, "", 0, rows);
  text.table(rows);
  text.blank();
  const io::OrderedJson& files = summary.at("files");
  text.line(fmt::format("files ({} written in {})", files.size(), out_dir));
  std::string line;
  for (const auto& file : files) {
    // Named within the directory; a file elsewhere by its whole path.
    const std::string path = file.get<std::string>();
    std::string name = std::filesystem::path(path).lexically_relative(out_dir).generic_string();
    if (name.empty() || name.starts_with("..")) name = path;
    if (!line.empty() && line.size() + 1 + name.size() > 98) {
      text.line("  " + line);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += name;
  }
  if (!line.empty()) text.line("  " + line);
  return text.str();
}

namespace {

int run_experiment(const ExperimentArgs& args, const ExperimentRegistry& experiments) {
  const auto it = experiments.find(args.name);
  if (it == experiments.end()) {
    std::vector<std::string> names;
    for (const auto& [name, runner] : experiments) names.push_back(name);
    throw InputError(
        fmt::format("unknown experiment '{}'{} (available: {})", one_line(args.name, 40),
                    io::did_you_mean(args.name, names),
                    names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))),
        "command line");
  }
  if (args.instances_given && args.options.instances < 1)
    throw InputError("must be >= 1 (leave it out for the paper's count)", "--instances");
  if (args.seeds_given && args.options.seeds < 1)
    throw InputError("must be >= 1 (leave it out for the default)", "--seeds");
  const bool simulated_options = args.options.seeds > 0 || args.options.quick;
  if (simulated_options && !it->second.simulated)
    throw InputError(fmt::format("--seeds and --quick apply to simulated experiments only, not to "
                                 "'{}' (it takes --instances)",
                                 args.name),
                     simulated_options && args.options.quick ? "--quick" : "--seeds");
  if (args.options.instances > 0 && it->second.simulated)
    throw InputError(fmt::format("'{}' takes --seeds, not --instances", args.name), "--instances");
  std::error_code error;
  std::filesystem::create_directories(args.options.out_dir, error);
  if (error) {
    throw InputError(
        fmt::format("cannot create directory '{}': {}", args.options.out_dir, error.message()),
        "--out");
  }
  const io::OrderedJson summary = it->second.run(args.options);
  if (args.format == "json") {
    print_json(summary);
  } else {
    print_result(experiment_text(summary, it->second, args.options.out_dir));
  }
  return 0;
}

}  // namespace

void register_experiment_command(CLI::App& app, Action& action,
                                 const ExperimentRegistry& experiments) {
  auto args = std::make_shared<ExperimentArgs>();
  CLI::App* command = app.add_subcommand(
      "experiment", "Rerun a paper's experiment; writes its tables and figures into --out");
  command->add_option("name", args->name, "Experiment name (below)")->required();
  std::string names = "Experiments:\n";
  for (const auto& [name, experiment] : experiments)
    names += fmt::format("  {:<10} {}\n", name, experiment.description);
  command->footer(names);
  command->add_option("--out", args->options.out_dir, "Output directory")->capture_default_str();
  CLI::Option* seed = command->add_option("--seed", args->options.seed,
                                          "Random seed (default 1; balance: 2, docs/balance.md)");
  CLI::Option* instances =
      command->add_option("--instances", args->options.instances,
                          "Instances per configuration (>= 1; without it, as in the paper)");
  CLI::Option* seeds = command->add_option(
      "--seeds", args->options.seeds,
      "Random scenarios per cell of a simulated experiment (>= 1; without it, its default)");
  command->add_flag("--quick", args->options.quick,
                    "A reduced run of a simulated experiment (every scheme, fewer cells)");
  command
      ->add_option("--format", args->format,
                   "text: what ran, the headline numbers and the files written | json: the "
                   "summary document of docs/README.md")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "text"}));
  command->callback([&action, &experiments, args, instances, seeds, seed] {
    args->instances_given = instances->count() > 0;
    args->options.seed_given = seed->count() > 0;
    args->seeds_given = seeds->count() > 0;
    action = [&experiments, args] { return run_experiment(*args, experiments); };
  });
}

}  // namespace redist::cli
