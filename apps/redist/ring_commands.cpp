// `redist ring plan|check|bound` (docs/formats.md): thin adapters from JSON files to the core
// library.
#include <iostream>
#include <memory>

#include "apps/redist/cli.hpp"
#include "redist/common/error.hpp"
#include "redist/io/options.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"
#include "redist/svg/ring_gantt.hpp"

namespace redist::cli {

namespace {

struct RingOptions {
  std::string instance = "-";
  std::string schedule;
  std::string algorithm = "auto";
  std::string solver = "fast";
  std::string gantt;
  std::string format = "json";
};

// The Gantt chart of a schedule document (SVG), after checking its limits
// (PlanCheckCommand::chart).
std::string gantt_chart(const std::string& instance_text, const std::string& schedule_text,
                        const std::string& title) {
  const ring::Instance instance = io::located_in(
      "$.ring", [&] { return io::read_ring_instance(io::parse_document(instance_text)); });
  if (schedule_text.empty()) {
    svg::require_gantt_size(instance.size(), 0, "gantt");
    return "";
  }
  const ring::Schedule schedule = io::read_ring_schedule(schedule_text);
  svg::require_gantt_size(instance.size(), schedule.transfers.size(), "gantt");
  return title.empty() ? "" : svg::ring_gantt_svg(instance, schedule, title);
}

PlanCheckCommand ring_command(const RingOptions& o) {
  const io::OrderedJson options = {{"algorithm", o.algorithm}, {"solver", o.solver}};
  return {plan_with(ring::plan_json, options), ring::check_json, gantt_chart, "ring"};
}

int run_bound(const RingOptions& o) {
  std::cout << ring::bound_json(io::read_text(o.instance));
  return 0;
}

}  // namespace

void register_ring_commands(CLI::App& app, Action& action) {
  auto options = std::make_shared<RingOptions>();
  CLI::App* ring = app.add_subcommand("ring", "Redistribution on processor rings (RRV04)");
  ring->require_subcommand(1);

  CLI::App* plan = ring->add_subcommand("plan", "Plan a redistribution; prints the schedule");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option(
          "--algorithm,-a", options->algorithm,
          choices({{"auto", "the best of those below that apply to the ring (the default)"},
                   {"unidirectional", "RRV04 §3-4: optimal on unidirectional rings"},
                   {"bidirectional-homogeneous",
                    "RRV04 §5: optimal on bidirectional rings whose costs are all equal"},
                   {"light", "RRV04 §6.1: optimal when an optimal flow is light"},
                   {"light-enforced", "RRV04 §6.2: a light schedule whenever one exists"},
                   {"heuristic", "chain schedules for any ring; the gap to the bound is reported"},
                   {"exact",
                    "exhaustive search: proven optimum, up to 8 processors and 32 "
                    "moved items"}}))
      ->capture_default_str();
  plan->add_option("--solver", options->solver,
                   choices({{"fast", "System 6 by an O(n log n) convex search (the default)"},
                            {"lp", "System 6 as a linear program (COIN-OR CLP)"}}))
      ->capture_default_str();
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  add_format_option(plan, options->format);
  add_example(plan,
              R"({"ring": {"bidirectional": true, "loads": [6, 0, 2, 0], "targets": [2, 2, 2, 2],)"
              "\n            "
              R"("cost_next": [1, 2, 1, 1], "cost_prev": [1, 1, 3, 1]}})",
              "redist ring plan --format text data/examples/demo-ring.json");
  plan->callback([&action, options] {
    action = [options] {
      return run_plan_command(ring_command(*options), options->instance, options->gantt,
                              options->format);
    };
  });

  CLI::App* check = ring->add_subcommand("check", "Validate a schedule against an instance");
  check->add_option("instance", options->instance, "Instance JSON file ('-': stdin)")->required();
  check->add_option("schedule", options->schedule, "Schedule JSON file ('-': stdin)")->required();
  check->add_option("--gantt", options->gantt, "Write the Gantt chart of a valid schedule");
  check->callback([&action, options] {
    action = [options] {
      return run_check_command(ring_command(*options), options->instance, options->schedule,
                               options->gantt);
    };
  });

  CLI::App* bound = ring->add_subcommand("bound", "Lower bounds on the redistribution time");
  bound->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  bound->callback([&action, options] { action = [options] { return run_bound(*options); }; });
}

}  // namespace redist::cli
