// `redist ring plan|check|bound` (docs/formats.md): thin adapters from JSON files to the core
// library. The instance is read once and planned once; every output renders that one schedule.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"
#include "redist/svg/ring_gantt.hpp"
#include "redist/text/ring_summary.hpp"

namespace redist::cli {

namespace {

struct RingOptions {
  std::string instance = "-";
  std::string algorithm = "auto";
  std::string solver = "fast";
  std::string gantt;
  std::string format = "json";
  double time_limit = 0;  // seconds; 0: none
};

ring::Instance read_ring_instance_text(const std::string& text) {
  return io::located_in("$.ring", [&] { return io::read_ring_instance(io::parse_document(text)); });
}

int run_ring_plan(const RingOptions& o) {
  return suggesting("--algorithm", o.algorithm, io::names_of(ring::Family::algorithms()), [&] {
    return suggesting("--solver", o.solver, {"fast", "lp"}, [&] {
      const ring::PlanOptions options = io::located_in("$.ring", [&] {
        return ring::PlanOptions{o.algorithm, ring::solver_named(o.solver),
                                 time_limit_of(o.time_limit)};
      });
      return run_plan(family_plan_command<ring::Family>(options), o.instance, o.gantt, o.format);
    });
  });
}

// `ring bound`: the bounds of the instance, as a document or (--format text) a summary.
int run_bound(const RingOptions& o) {
  const ring::Instance in = read_instance_as("ring", "bound", read_input(o.instance, "instance"),
                                             read_ring_instance_text);
  const ring::BoundReport report = io::located_in("$.ring", [&] { return ring::bounds(in); });
  print_result(o.format == "text" ? text::ring_bound_summary(report, "redist ring bound")
                                  : io::ring_bound_text(report));
  return 0;
}

}  // namespace

void register_ring_commands(CLI::App& app, Action& action, ExperimentRegistry& /*experiments*/) {
  auto options = std::make_shared<RingOptions>();
  CLI::App* ring = app.add_subcommand("ring", "Redistribution on processor rings (RRV04)");
  ring->require_subcommand(1);

  CLI::App* plan = ring->add_subcommand("plan", "Plan a redistribution; prints the schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--algorithm,-a", options->algorithm, choices(ring::Family::algorithms()))
      ->capture_default_str();
  plan->add_option("--solver", options->solver,
                   choices({{"fast", "System 6 by an O(n log n) convex search (the default)"},
                            {"lp", "System 6 as a linear program (COIN-OR CLP)"}}))
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  add_time_limit_option(plan, options->time_limit);
  add_format_option(plan, options->format);
  add_example(plan,
              R"({"ring": {"bidirectional": true, "loads": [6, 0, 2, 0], "targets": [2, 2, 2, 2],)"
              "\n            "
              R"("cost_next": [1, 2, 1, 1], "cost_prev": [1, 1, 3, 1]}})",
              "redist ring plan --format text data/examples/demo-ring.json");
  plan->callback([&action, options] { action = [options] { return run_ring_plan(*options); }; });

  add_family_check_command<ring::Family>(
      ring, action,
      {"Validate a schedule against an instance", "Instance JSON file ('-': stdin)",
       "Schedule JSON file ('-': stdin)",
       "Write the Gantt chart of the schedule (an invalid one with its first conflict in red)"});

  CLI::App* bound = ring->add_subcommand("bound", "Lower bounds on the redistribution time");
  bound->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  add_format_option(bound, options->format);
  bound->callback([&action, options] { action = [options] { return run_bound(*options); }; });
}

REDIST_REGISTER_FAMILY_COMMANDS(ring, register_ring_commands);

}  // namespace redist::cli
