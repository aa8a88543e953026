// `redist star plan|check|order` (docs/star.md, STAR): thin adapters from JSON files to
// redist/star.hpp.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "experiments/star/star_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/options.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star.hpp"
#include "redist/svg/star_gantt.hpp"
#include "redist/text/star_summary.hpp"

namespace redist::cli {

namespace {

// `experiment star --instances N` runs 12 rows of N platforms (and N / 5 small ones solved by
// exact), about 13 ms per platform and row on 2 busy cores: beyond this it runs for many minutes.
constexpr std::int64_t kMaxStarExperimentInstances = 10000;

struct StarOptions {
  std::string instance = "-";
  std::string algorithm = "best";
  std::string gantt;
  std::string format = "json";
  double time_limit = 0;  // seconds; 0: none
};

// `star order`: Theorem 1's schedule, as a document or (--format text) a summary.
int run_order(const StarOptions& o) {
  const star::OrderInstance in =
      read_instance_as("star", "order", read_input(o.instance, "instance"), [](const auto& text) {
        return io::located_in("$.star",
                              [&] { return io::read_order_instance(io::parse_document(text)); });
      });
  const star::Schedule s = io::located_in("$.star", [&] { return star::order(in); });
  print_result(o.format == "text" ? text::star_order_summary(in, s, "redist star order")
                                  : io::star_schedule_json(s));
  return 0;
}

// The text summary's headline of `experiment star`: per algorithm, its mean distance from the
// best of the three over Table 1's rows (the paper's beside it) and how often it was optimal on
// the small platforms solved exactly; then the best of the three against the optimum.
std::vector<std::pair<std::string, std::string>> star_headline(const io::OrderedJson& results) {
  const auto mean_of = [](const io::OrderedJson& rows, const std::string& column,
                          const std::string& weight) {
    double sum = 0, total = 0;
    for (const auto& row : rows) {
      const double w = weight.empty() ? 1.0 : row.at(weight).get<double>();
      sum += w * row.at(column).get<double>();
      total += w;
    }
    return total > 0 ? sum / total : 0.0;
  };
  const auto& table1 = results.at("table1");
  const auto& optimum = results.at("optimum");
  double platforms = 0, worst = 1;
  for (const auto& row : optimum) {
    platforms += row.at("platforms").get<double>();
    worst = std::max(worst, row.at("best-of-3 max").get<double>());
  }
  std::vector<std::pair<std::string, std::string>> lines;
  for (const std::string name : {"BBA", "MBBSA", "R-BSA"}) {
    lines.emplace_back(
        name, fmt::format("{:.4f} x the best of the three (paper {:.4f}; mean of {} rows); "
                          "optimal on {:.1f}% of the small platforms",
                          mean_of(table1, name + " mean", ""),
                          mean_of(table1, "paper " + name + " mean", ""), table1.size(),
                          mean_of(optimum, name + " optimal %", "platforms")));
  }
  lines.emplace_back("best of 3",
                     fmt::format("optimal on {:.1f}% of {} small platforms solved exactly, at "
                                 "most {:.4f} x the optimum",
                                 mean_of(optimum, "best-of-3 optimal %", "platforms"),
                                 static_cast<std::int64_t>(platforms), worst));
  return lines;
}

}  // namespace

void register_star_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments) {
  auto options = std::make_shared<StarOptions>();
  CLI::App* star = app.add_subcommand("star",
                                      "Scheduling and redistribution on star platforms "
                                      "(STAR)");
  star->require_subcommand(1);

  CLI::App* plan = star->add_subcommand("plan", "Plan a redistribution; prints the schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, choices(star::Family::algorithms()))
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  add_time_limit_option(plan, options->time_limit);
  add_format_option(plan, options->format);
  add_example(plan, R"({"star": {"c": [1, 2, 1], "w": [3, 2, 5], "loads": [12, 0, 6]}})",
              "redist star plan --format text data/examples/star-platform.json");
  plan->callback([&action, options] {
    action = [options] {
      return suggesting("--algorithm", options->algorithm, io::names_of(star::Family::algorithms()),
                        [&] {
                          const star::PlanOptions plan_options{options->algorithm,
                                                               time_limit_of(options->time_limit)};
                          return run_plan(family_plan_command<star::Family>(plan_options),
                                          options->instance, options->gantt, options->format);
                        });
    };
  });

  add_family_check_command<star::Family>(
      star, action,
      {"Validate a schedule against an instance", "Instance JSON file ('-': stdin)",
       "Schedule JSON file ('-': stdin)",
       "Write the Gantt chart of the schedule (an invalid one with its first conflict in red)"});

  CLI::App* order = star->add_subcommand(
      "order", "Theorem 1: optimal redistribution order when computation is neglected");
  order->add_option("instance", options->instance, "{\"star\": {\"c\", \"delta\"}} ('-': stdin)");
  add_format_option(order, options->format);
  order->callback([&action, options] { action = [options] { return run_order(*options); }; });

  experiments["star"] = [](const ExperimentOptions& o) {
    experiments::StarExperimentOptions options;
    options.out_dir = o.out_dir;
    options.seed = o.seed;
    if (o.instances > kMaxStarExperimentInstances) {
      throw InputError(fmt::format("at most {} platforms per row (12 rows; that many already take "
                                   "minutes); run several seeds instead",
                                   kMaxStarExperimentInstances),
                       "--instances");
    }
    if (o.instances > 0) {
      options.instances = o.instances;
      options.small_instances = std::max<std::int64_t>(1, o.instances / 5);
    }
    return io::OrderedJson(experiments::run_star_experiment(options));
  };
  experiments["star"].description =
      "STAR Table 1, Figures 22-25: BBA, MBBSA, R-BSA, exact on random stars (docs/star.md)";
  experiments["star"].headline = star_headline;
}

REDIST_REGISTER_FAMILY_COMMANDS(star, register_star_commands);

}  // namespace redist::cli
