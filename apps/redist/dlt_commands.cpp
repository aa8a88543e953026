// `redist dlt plan|check` (docs/star.md, STAR §5): thin adapters from JSON files to
// redist/dlt.hpp.
#include <memory>
#include <string>

#include "apps/redist/cli.hpp"
#include "redist/dlt.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/options.hpp"
#include "redist/svg/dlt_gantt.hpp"
#include "redist/text/dlt_summary.hpp"

namespace redist::cli {

namespace {

struct DltOptions {
  std::string instance = "-";
  std::string solver = "fast";
  std::string gantt;
  std::string format = "json";
};

// The help of --solver: dlt::solver_names(), one line each.
std::string dlt_solver_help() {
  std::string text = "one of:";
  for (const dlt::SolverName& n : dlt::solver_names()) {
    text += std::string("\n      ") + n.name + ": " + n.description;
  }
  return text;
}

}  // namespace

void register_dlt_commands(CLI::App& app, Action& action, ExperimentRegistry& /*experiments*/) {
  auto options = std::make_shared<DltOptions>();
  CLI::App* dlt = app.add_subcommand("dlt", "Divisible load on a switch (STAR §5)");
  dlt->require_subcommand(1);
  CLI::App* plan = dlt->add_subcommand("plan", "Solve LP 7 and write equations 8-9");
  plan->add_option("instance", options->instance, "Instance JSON file ('-' or none: stdin)");
  plan->add_option("--solver", options->solver, dlt_solver_help())->capture_default_str();
  add_format_option(plan, options->format);
  plan->add_option("--gantt", options->gantt, "Write the schedule's Gantt chart to this SVG file");
  add_example(plan, R"({"dlt": {"b": [2, 1, 4], "s": [1, 3, 2], "alpha": [10, 0, 2]}})",
              "redist dlt plan --format text data/examples/dlt-switch.json");
  plan->callback([&action, options] {
    action = [options] {
      std::vector<std::string> solvers;
      for (const dlt::SolverName& n : dlt::solver_names()) solvers.emplace_back(n.name);
      return suggesting("--solver", options->solver, solvers, [&] {
        const dlt::PlanOptions plan_options = io::located_in(
            "$.dlt", [&] { return dlt::PlanOptions{dlt::solver_named(options->solver)}; });
        return run_plan(family_plan_command<dlt::Family>(plan_options), options->instance,
                        options->gantt, options->format);
      });
    };
  });
  add_family_check_command<dlt::Family>(
      dlt, action,
      {"Validate a divisible-load schedule", "Instance JSON file ('-': stdin)",
       "Schedule JSON file ('-': stdin)",
       "Write the Gantt chart of the schedule (an invalid one with its first conflict in red)"});
}

REDIST_REGISTER_FAMILY_COMMANDS(dlt, register_dlt_commands);

}  // namespace redist::cli
