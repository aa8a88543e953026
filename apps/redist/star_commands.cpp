// `redist star plan|check|order` and `redist dlt plan` (SPEC §4, STAR): thin adapters from JSON
// files to the core library (redist/star).
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "apps/redist/cli.hpp"
#include "experiments/star/star_experiment.hpp"
#include "redist/common/error.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/dlt.hpp"
#include "redist/star/dlt_validate.hpp"
#include "redist/svg/star_gantt.hpp"
#include "redist/star/order.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"

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
};

int run_plan(const StarOptions& o) {
  const star::Instance instance = io::read_star_instance(io::read_document(o.instance));
  if (!o.gantt.empty()) star::require_star_gantt_size(instance.workers(), 0);
  const star::Schedule schedule = star::plan_star(instance, o.algorithm);
  if (!o.gantt.empty()) {
    star::require_star_gantt_size(instance.workers(), schedule.transfers.size());
    write_text_file(o.gantt, star::star_gantt_svg(instance, schedule, "redist star plan"),
                    "--gantt");
  }
  io::write_star_schedule(std::cout, schedule);
  return 0;
}

int run_check(const StarOptions& o) {
  require_distinct_inputs(o.instance, o.schedule, "instance and schedule");
  const star::Instance instance = io::read_star_instance(io::read_document(o.instance));
  if (!o.gantt.empty()) star::require_star_gantt_size(instance.workers(), 0);
  const star::Schedule schedule = io::read_star_schedule(io::read_text(o.schedule));
  if (!o.gantt.empty())
    star::require_star_gantt_size(instance.workers(), schedule.transfers.size());
  const star::ValidationResult result = star::validate_schedule(instance, schedule);
  if (result.valid && !o.gantt.empty()) {
    write_text_file(o.gantt, star::star_gantt_svg(instance, schedule, "redist star check"),
                    "--gantt");
  }
  return print_check_result(result.valid, result.makespan, result.reason);
}

int run_order(const StarOptions& o) {
  const star::OrderInstance instance = io::read_order_instance(io::read_document(o.instance));
  io::write_star_schedule(std::cout, star::plan_order(instance));
  return 0;
}

// Every plan is re-checked by the independent validator before it is written: when the values
// span more than double precision resolves (a worker whose sliver of rounding takes longer than
// the makespan to compute), the instance is refused rather than a wrong schedule printed.
void require_checked_dlt(const star::DltInstance& instance, const star::DltSchedule& schedule) {
  star::DltClaimedSchedule claim;
  claim.makespan = schedule.makespan;
  claim.delta = schedule.delta;
  claim.transfers.reserve(schedule.transfers.size());
  for (const star::DltTransfer& t : schedule.transfers) {
    claim.transfers.push_back(
        {static_cast<std::int64_t>(t.from), static_cast<std::int64_t>(t.to), t.amount, t.rate});
  }
  const star::DltValidationResult r = star::validate_dlt_schedule(instance, claim);
  if (!r.valid) {
    throw InputError(
        "the values span more than double precision resolves (the plan fails its "
        "check: " +
            r.reason + "); use b, s and alpha of closer magnitudes",
        "$.dlt");
  }
}

int run_dlt(const StarOptions& o) {
  const star::DltInstance instance = io::read_dlt_instance(io::read_document(o.instance));
  const std::size_t limit = o.solver == "lp" ? star::kDltMaxWorkersLp : star::kDltMaxWorkersFast;
  if (instance.alpha.size() > limit) {
    throw InputError(
        fmt::format("{} workers, more than the {} solver takes ({}){}", instance.alpha.size(),
                    o.solver, limit, o.solver == "lp" ? "; use --solver fast" : ""),
        "$.dlt.alpha");
  }
  star::DltSchedule schedule = star::solve_dlt(instance, o.solver);
  star::dlt_transfers(schedule);
  require_checked_dlt(instance, schedule);
  io::OrderedJson out;
  out["algorithm"] = "lp7";
  out["solver"] = schedule.solver;
  out["makespan"] = schedule.makespan;
  out["lower_bound"] = schedule.makespan;
  out["optimal"] = true;
  const io::OrderedJson body = io::dlt_schedule_json(schedule);
  for (const auto& [key, value] : body.items()) {
    if (key != "solver" && key != "makespan") out[key] = value;
  }
  print_json(out);
  return 0;
}

int run_dlt_check(const StarOptions& o) {
  require_distinct_inputs(o.instance, o.schedule, "instance and schedule");
  const star::DltInstance instance = io::read_dlt_instance(io::read_document(o.instance));
  const star::DltClaimedSchedule schedule = io::read_dlt_schedule(io::read_text(o.schedule));
  const star::DltValidationResult result = star::validate_dlt_schedule(instance, schedule);
  return print_check_result(result.valid, result.makespan, result.reason);
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
  plan->add_option("--algorithm,-a", options->algorithm, "bba | mbbsa | rbsa | exact | best")
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

  CLI::App* check = star->add_subcommand("check", "Validate a schedule against an instance");
  check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")->required();
  check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")->required();
  check->add_option("--gantt", options->gantt, "Write the Gantt chart of a valid schedule");
  check->callback([&action, options] { action = [options] { return run_check(*options); }; });

  CLI::App* order = star->add_subcommand(
      "order", "Theorem 1: optimal redistribution order when computation is neglected");
  order->add_option("instance", options->instance, "{\"star\": {\"c\", \"delta\"}} ('-': stdin)");
  order->callback([&action, options] { action = [options] { return run_order(*options); }; });

  CLI::App* dlt = app.add_subcommand("dlt", "Divisible load on a switch (STAR §5)");
  dlt->require_subcommand(1);
  CLI::App* dlt_plan = dlt->add_subcommand("plan", "Solve LP 7 and write equations 8-9");
  dlt_plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  dlt_plan->add_option("--solver", options->solver, "fast | lp")->capture_default_str();
  dlt_plan->callback([&action, options] { action = [options] { return run_dlt(*options); }; });
  CLI::App* dlt_check = dlt->add_subcommand("check", "Validate a divisible-load schedule");
  dlt_check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")
      ->required();
  dlt_check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")
      ->required();
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
}

}  // namespace redist::cli
