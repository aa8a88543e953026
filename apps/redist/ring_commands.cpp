// `redist ring plan|check|bound` (SPEC §2): thin adapters from JSON files to the core library.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/svg/ring_gantt.hpp"

namespace redist::cli {

namespace {

struct RingOptions {
  std::string instance = "-";
  std::string schedule;
  std::string algorithm = "auto";
  std::string solver = "fast";
  std::string gantt;
};

ring::Solver parse_solver(const std::string& name) {
  if (name == "fast") return ring::Solver::fast;
  if (name == "lp") return ring::Solver::lp;
  throw InputError("unknown solver '" + name + "' (expected fast or lp)", "--solver");
}

int run_plan(const RingOptions& o) {
  const ring::Instance instance = io::read_ring_instance(io::read_document(o.instance));
  if (!o.gantt.empty()) svg::require_gantt_size(instance.size(), 0, "--gantt");
  const ring::Schedule schedule = ring::plan_ring(instance, o.algorithm, parse_solver(o.solver));
  if (!o.gantt.empty()) {
    svg::require_gantt_size(instance.size(), schedule.transfers.size(), "--gantt");
    write_text_file(o.gantt, svg::ring_gantt_svg(instance, schedule, "redist ring plan"),
                    "--gantt");
  }
  std::cout << io::ring_schedule_json(schedule);
  return 0;
}

int run_check(const RingOptions& o) {
  require_distinct_inputs(o.instance, o.schedule, "instance and schedule");
  const ring::Instance instance = io::read_ring_instance(io::read_document(o.instance));
  const ring::Schedule schedule = io::read_ring_schedule(io::read_text(o.schedule));
  if (!o.gantt.empty()) {
    svg::require_gantt_size(instance.size(), schedule.transfers.size(), "--gantt");
  }
  const ring::ValidationResult result = ring::validate_schedule(instance, schedule);
  if (result.valid && !o.gantt.empty()) {
    write_text_file(o.gantt, svg::ring_gantt_svg(instance, schedule, "redist ring check"),
                    "--gantt");
  }
  return print_check_result(result.valid, result.makespan, result.reason);
}

int run_bound(const RingOptions& o) {
  const ring::Instance instance = io::read_ring_instance(io::read_document(o.instance));
  const ring::BoundReport report = ring::ring_bounds(instance);
  io::OrderedJson out;
  out["lower_bound"] = report.lower_bound;
  io::OrderedJson terms = io::OrderedJson::object();
  for (const auto& [name, value] : report.terms) {
    terms[name] = value ? io::OrderedJson(*value) : io::OrderedJson(nullptr);
  }
  out["terms"] = std::move(terms);
  print_json(out);
  return 0;
}

}  // namespace

void register_ring_commands(CLI::App& app, Action& action) {
  auto options = std::make_shared<RingOptions>();
  CLI::App* ring = app.add_subcommand("ring", "Redistribution on processor rings (RRV04)");
  ring->require_subcommand(1);

  CLI::App* plan = ring->add_subcommand("plan", "Plan a redistribution; prints the schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm,
                   "unidirectional | bidirectional-homogeneous | auto")
      ->capture_default_str();
  plan->add_option("--solver", options->solver, "fast | lp (LP-based algorithms)")
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  plan->callback([&action, options] { action = [options] { return run_plan(*options); }; });

  CLI::App* check = ring->add_subcommand("check", "Validate a schedule against an instance");
  check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")->required();
  check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")->required();
  check->add_option("--gantt", options->gantt, "Write the Gantt chart of a valid schedule");
  check->callback([&action, options] { action = [options] { return run_check(*options); }; });

  CLI::App* bound = ring->add_subcommand("bound", "Lower bounds on the redistribution time");
  bound->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  bound->callback([&action, options] { action = [options] { return run_bound(*options); }; });
}

}  // namespace redist::cli
