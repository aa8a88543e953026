// Shared plumbing of the redist command line: each family registers its subcommands, and each
// subcommand stores the action to run once the arguments are parsed.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/common/check.hpp"
#include "redist/io/json.hpp"

namespace redist::cli {

// The action chosen by the parsed command line; returns the process exit code.
using Action = std::function<int()>;

// `redist experiment NAME` (docs/README.md): each family registers its papers' experiments by name.
struct ExperimentOptions {
  std::string out_dir = "experiment-out";  // tables (JSON, Markdown) and figures (SVG) go here
  std::uint64_t seed = 1;
  bool seed_given = false;     // --seed on the command line (else an experiment may use its own)
  std::int64_t instances = 0;  // 0: the paper's count; smaller for a quick run
  std::int64_t seeds = 0;      // random scenarios per cell (simulations); 0: the default
  bool quick = false;          // a reduced run (simulations)
};
// Runs the experiment, writes its files into options.out_dir (created if missing), and returns a
// JSON summary printed on standard output (at least the list of files written).
using ExperimentRunner = std::function<io::OrderedJson(const ExperimentOptions&)>;
struct Experiment {
  Experiment() = default;
  template <class Runner>
  Experiment(Runner runner, bool simulated = false)  // NOLINT: a runner is an experiment
      : run(std::move(runner)), simulated(simulated) {}
  ExperimentRunner run;
  bool simulated = false;   // takes --seeds and --quick (the others take --instances)
  std::string description;  // one line for `experiment --help`
};
using ExperimentRegistry = std::map<std::string, Experiment>;

void register_ring_commands(CLI::App& app, Action& action);
void register_lau_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
void register_star_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
void register_dlt_commands(CLI::App& app, Action& action);
void register_slicering_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
void register_balance_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
void register_exchange_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
void register_demo_command(CLI::App& app, Action& action);
// Registered last: lists whatever the families put into `experiments`.
void register_experiment_command(CLI::App& app, Action& action,
                                 const ExperimentRegistry& experiments);

// Writes `text` to `file`; InputError at `option` when the file cannot be written.
void write_text_file(const std::string& file, const std::string& text, const std::string& option);
// Prints a JSON document on standard output (one document, 2-space indentation, newline).
void print_json(const io::OrderedJson& document);
// InputError when both files are standard input ("-"): only one document can come from it.
void require_distinct_inputs(const std::string& first, const std::string& second, const char* what);
// Prints a typed verdict as every `check` prints it ({"valid": true, "makespan": m} or
// {"valid": false, "reason": r}) and returns the exit code: 0 valid, 1 invalid.
int print_verdict(const CheckResult& verdict);

// The typed `plan` command of a family: the instance is read once and planned once, and every
// output (the JSON document, the text summary, the picture) renders that one result. `read` turns
// the instance file's text into the typed instance (errors located in the document, `$.ring...`);
// `plan` runs the planner (its errors located by the caller's reader conventions); `check` is the
// family's independent validator, whose verdict the text summary shows; `chart_limits` refuses,
// before planning, an instance whose picture would exceed the documented limits; `chart` draws.
template <class Instance, class Result>
struct PlanCommand {
  std::string family;  // "ring": the picture's title reads "redist ring plan"
  std::function<Instance(const std::string& text)> read;
  std::function<Result(const Instance&)> plan;
  std::function<std::string(const Result&)> json;
  std::function<CheckResult(const Instance&, const Result&)> check;
  std::function<std::string(const Instance&, const Result&, const CheckResult&)> text;
  std::function<void(const Instance&)> chart_limits;
  std::function<std::string(const Instance&, const Result&, const std::string& title)> chart;
};

template <class Instance, class Result>
int run_plan(const PlanCommand<Instance, Result>& command, const std::string& instance_file,
             const std::string& gantt_file, const std::string& format) {
  const Instance instance = command.read(io::read_text(instance_file));
  if (!gantt_file.empty()) command.chart_limits(instance);
  const Result result = command.plan(instance);
  if (!gantt_file.empty()) {
    write_text_file(gantt_file,
                    command.chart(instance, result, "redist " + command.family + " plan"),
                    "--gantt");
  }
  if (format == "text") {
    std::cout << command.text(instance, result, command.check(instance, result));
  } else {
    std::cout << command.json(result);
  }
  return 0;
}

// The typed `check` command of a family: `Document` is the schedule document as read (the typed
// schedule and which claims it states); the verdict is printed as every family prints it
// ({"valid": ...}) and gives the exit code (0 valid, 1 invalid). With --gantt, a valid schedule's
// picture is written.
template <class Instance, class Document>
struct CheckCommand {
  std::string family;
  std::function<Instance(const std::string& text)> read;
  std::function<Document(const std::string& text)> read_schedule;
  std::function<CheckResult(const Instance&, const Document&)> check;
  std::function<void(const Instance&, const Document&)> chart_limits;
  std::function<std::string(const Instance&, const Document&, const std::string& title)> chart;
};

template <class Instance, class Document>
int run_check(const CheckCommand<Instance, Document>& command, const std::string& instance_file,
              const std::string& schedule_file, const std::string& gantt_file) {
  require_distinct_inputs(instance_file, schedule_file, "instance and schedule");
  const Instance instance = command.read(io::read_text(instance_file));
  const Document schedule = command.read_schedule(io::read_text(schedule_file));
  if (!gantt_file.empty()) command.chart_limits(instance, schedule);
  const CheckResult verdict = command.check(instance, schedule);
  if (!gantt_file.empty() && verdict.valid) {
    write_text_file(gantt_file,
                    command.chart(instance, schedule, "redist " + command.family + " check"),
                    "--gantt");
  }
  return print_verdict(verdict);
}

// The help of a choice: one line per (name, description), below the option.
std::string choices(std::initializer_list<std::pair<const char*, const char*>> names);
// Ends a command's help with an example instance and a command line that uses a bundled file.
void add_example(CLI::App* command, const char* instance, const char* command_line);
// Adds `--format json|text` to a plan command.
void add_format_option(CLI::App* command, std::string& format);

}  // namespace redist::cli
