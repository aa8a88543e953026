// `redist star plan|check|order` and `redist dlt plan` (docs/star.md, STAR): thin adapters from
// JSON files to redist/star.hpp and redist/dlt.hpp.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "experiments/star/star_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/dlt.hpp"
#include "redist/io/options.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star.hpp"
#include "redist/svg/dlt_gantt.hpp"
#include "redist/svg/star_gantt.hpp"

namespace redist::cli {

namespace {

// `experiment star --instances N` runs 12 rows of N platforms (and N / 5 small ones solved by
// exact), about 13 ms per platform and row on 2 busy cores: beyond this it runs for many minutes.
constexpr std::int64_t kMaxStarExperimentInstances = 10000;

struct StarOptions {
  std::string instance = "-";
  std::string schedule;
  std::string algorithm = "best";
  std::string solver = "fast";
  std::string gantt;
  std::string format = "json";
};

// The Gantt chart of a schedule document (SVG), after checking its limits (PlanCheckCommand).
std::string star_gantt_chart(const std::string& instance_text, const std::string& schedule_text,
                             const std::string& title) {
  const star::Instance instance = io::located_in(
      "$.star", [&] { return io::read_star_instance(io::parse_document(instance_text)); });
  star::require_star_gantt_size(instance.workers(), 0);
  if (schedule_text.empty()) return "";
  const star::Schedule schedule = io::read_star_schedule(schedule_text);
  star::require_star_gantt_size(instance.workers(), schedule.transfers.size());
  return title.empty() ? "" : star::star_gantt_svg(instance, schedule, title);
}

// The Gantt chart of a divisible-load schedule document (SVG), after checking its limits.
std::string dlt_gantt_chart(const std::string& instance_text, const std::string& schedule_text,
                            const std::string& title) {
  const star::DltInstance instance = io::located_in(
      "$.dlt", [&] { return io::read_dlt_instance(io::parse_document(instance_text)); });
  star::require_dlt_gantt_size(instance.b.size(), 0);
  if (schedule_text.empty()) return "";
  const star::DltClaimedSchedule schedule = io::read_dlt_schedule(schedule_text);
  star::require_dlt_gantt_size(instance.b.size(), schedule.transfers.size());
  return title.empty() ? "" : star::dlt_gantt_svg(instance, schedule, title);
}

PlanCheckCommand dlt_command(const StarOptions& o) {
  return {plan_with(dlt::plan_json, {{"solver", o.solver}}), dlt::check_json, dlt_gantt_chart,
          "dlt"};
}

PlanCheckCommand star_command(const StarOptions& o) {
  return {plan_with(star::plan_json, {{"algorithm", o.algorithm}}), star::check_json,
          star_gantt_chart, "star"};
}

int run_order(const StarOptions& o) {
  std::cout << star::order_json(io::read_text(o.instance));
  return 0;
}

int run_dlt(const StarOptions& o) {
  return run_plan_command(dlt_command(o), o.instance, o.gantt, o.format);
}

int run_dlt_check(const StarOptions& o) {
  return run_check_command(dlt_command(o), o.instance, o.schedule, o.gantt);
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
  plan->add_option(
          "--algorithm,-a", options->algorithm,
          choices({{"best",
                    "the best of bba, mbbsa and rbsa, then exact when small: proven optimal "
                    "when it can be (the default)"},
                   {"bba", "STAR §3.3: optimal when all c and all w are equal"},
                   {"mbbsa", "STAR §3.4: optimal on homogeneous links"},
                   {"rbsa", "STAR §3.5: a heuristic for heterogeneous links"},
                   {"exact", "branch and bound: proven optimum, up to 6 workers and 40 tasks"}}))
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  add_format_option(plan, options->format);
  add_example(plan, R"({"star": {"c": [1, 2, 1], "w": [3, 2, 5], "loads": [12, 0, 6]}})",
              "redist star plan --format text data/examples/star-platform.json");
  plan->callback([&action, options] {
    action = [options] {
      return run_plan_command(star_command(*options), options->instance, options->gantt,
                              options->format);
    };
  });

  CLI::App* check = star->add_subcommand("check", "Validate a schedule against an instance");
  check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")->required();
  check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")->required();
  check->add_option("--gantt", options->gantt, "Write the Gantt chart of a valid schedule");
  check->callback([&action, options] {
    action = [options] {
      return run_check_command(star_command(*options), options->instance, options->schedule,
                               options->gantt);
    };
  });

  CLI::App* order = star->add_subcommand(
      "order", "Theorem 1: optimal redistribution order when computation is neglected");
  order->add_option("instance", options->instance, "{\"star\": {\"c\", \"delta\"}} ('-': stdin)");
  order->callback([&action, options] { action = [options] { return run_order(*options); }; });

  CLI::App* dlt = app.add_subcommand("dlt", "Divisible load on a switch (STAR §5)");
  dlt->require_subcommand(1);
  CLI::App* dlt_plan = dlt->add_subcommand("plan", "Solve LP 7 and write equations 8-9");
  dlt_plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  dlt_plan
      ->add_option("--solver", options->solver,
                   choices({{"fast", "the closed form of linear program 7 (the default)"},
                            {"lp", "linear program 7 solved by COIN-OR CLP"}}))
      ->capture_default_str();
  add_format_option(dlt_plan, options->format);
  dlt_plan->add_option("--gantt", options->gantt,
                       "Write the schedule's Gantt chart to this SVG file");
  add_example(dlt_plan, R"({"dlt": {"b": [2, 1, 4], "s": [1, 3, 2], "alpha": [10, 0, 2]}})",
              "redist dlt plan --format text data/examples/dlt-switch.json");
  dlt_plan->callback([&action, options] { action = [options] { return run_dlt(*options); }; });
  CLI::App* dlt_check = dlt->add_subcommand("check", "Validate a divisible-load schedule");
  dlt_check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")
      ->required();
  dlt_check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")
      ->required();
  dlt_check->add_option("--gantt", options->gantt, "Write the Gantt chart of a valid schedule");
  dlt_check->callback(
      [&action, options] { action = [options] { return run_dlt_check(*options); }; });

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
}

}  // namespace redist::cli
