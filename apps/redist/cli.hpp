// Shared plumbing of the redist command line: each family registers its subcommands, and each
// subcommand stores the action to run once the arguments are parsed.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "redist/api/entry_points.hpp"
#include "redist/common/check.hpp"
#include "redist/common/error.hpp"
#include "redist/io/formats.hpp"
#include "redist/io/json.hpp"
#include "redist/io/suggest.hpp"
#include "redist/text/summary.hpp"

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
  // The headline numbers of the text summary, as (label, value) lines read from the JSON
  // summary's "results"; empty (the default): the summary lists what "results" holds.
  std::function<std::vector<std::pair<std::string, std::string>>(const io::OrderedJson& results)>
      headline;
};
// The readable summary of an experiment (`redist experiment NAME`, docs/README.md): what ran (its
// name, seed and instances), its headline numbers, what its results hold, and the files written.
std::string experiment_text(const io::OrderedJson& summary, const Experiment& experiment,
                            const std::string& out_dir);
using ExperimentRegistry = std::map<std::string, Experiment>;

// The commands of a family of the list (redist/api/families.hpp): each family's commands file
// registers them under the family's name at its end (REDIST_REGISTER_FAMILY_COMMANDS, as a
// solver registers itself), and `redist` adds them in the list's order (main.cpp). A family of the
// list that registers none gets plan and check from its faces (default_commands.hpp).
using FamilyCommands = void (*)(CLI::App& app, Action& action, ExperimentRegistry& experiments);
std::map<std::string, FamilyCommands, std::less<>>& family_commands();
bool register_family_commands(std::string_view family, FamilyCommands commands);
// At namespace scope in the family's commands file: REDIST_REGISTER_FAMILY_COMMANDS(ring, f).
#define REDIST_REGISTER_FAMILY_COMMANDS(family, commands)             \
  [[maybe_unused]] const bool redist_##family##_commands_registered = \
      ::redist::cli::register_family_commands(#family, commands)

void register_balance_commands(CLI::App& app, Action& action, ExperimentRegistry& experiments);
// `redist experiment dropin` (apps/redist/dropin_experiment.cpp).
void register_dropin_experiment(ExperimentRegistry& experiments);
void register_demo_command(CLI::App& app, Action& action);
// Registered last: lists whatever the families put into `experiments`.
void register_experiment_command(CLI::App& app, Action& action,
                                 const ExperimentRegistry& experiments);

// Writes `text` to `file`; InputError at `option` when the file cannot be written.
void write_text_file(const std::string& file, const std::string& text, const std::string& option);
// Prints a command's result on standard output: a JSON document (io::output_text) or a text
// summary, with the seconds the command spent (with_seconds, redist/api/seconds.hpp). Every
// command prints its result through it, once.
void print_result(const std::string& output);
// Prints a JSON document on standard output (one document, 2-space indentation, newline), with
// its seconds (print_result).
void print_json(const io::OrderedJson& document);
// InputError when both files are standard input ("-"): only one document can come from it.
void require_distinct_inputs(const std::string& first, const std::string& second, const char* what);
// The text of a file read only to explain an error (the second file of a swapped `check`), or ""
// when it cannot be read.
std::string read_second(const std::string& file);
// Prints a typed verdict as every `check` prints it ({"valid": true, "makespan": m} or
// {"valid": false, "reason": r}) and returns the exit code: 0 valid, 1 invalid.
int print_verdict(const CheckResult& verdict);

// The text of an input file ("-" or "": standard input, io::read_text). When standard input is a
// terminal, says first on standard error that the command waits for the `what` there ("reading
// the instance from standard input (Ctrl-D to end; ...)"), so that a forgotten file name does not
// look like a hang.
std::string read_input(const std::string& file, const std::string& what);

// Why a document that `redist FAMILY COMMAND` failed to read as its instance is not one, when it
// is a document of another kind (mistakes.cpp): another family's instance ("this is a star
// instance, not a ring one: use `redist star plan`"), the family's instance fields outside their
// object, a schedule, or ownership maps; std::nullopt otherwise (the reader's error stands).
std::optional<InputError> instance_mistake(const std::string& text, const std::string& family,
                                           const std::string& command);
// The same for the second file of `check`: an instance, or another family's output.
std::optional<InputError> output_mistake(const std::string& text, const std::string& family);
// The two files of `check` in the wrong order: the first is the family's output and the second
// its instance.
std::optional<InputError> swapped_mistake(const std::string& first, const std::string& second,
                                          const std::string& family);

// Reads `text` with `read`, as the instance of `redist FAMILY COMMAND`; an InputError gives way
// to instance_mistake's error when there is one.
template <class Read>
auto read_instance_as(const std::string& family, const std::string& command,
                      const std::string& text, Read&& read) {
  try {
    return read(text);
  } catch (const InputError&) {
    if (auto mistake = instance_mistake(text, family, command)) throw *mistake;
    throw;
  }
}

using io::suggesting;

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

// The plan command of a family of the list (redist/api/families.hpp), from its faces: the JSON
// face reads the instance and writes the plan, the text face summarizes it, the chart face draws
// it, as the JSON entry points (redist/api/entry_points.hpp) do. `options` are the planner's, read
// from the command line by the family's commands.
template <FamilyWithFaces F>
PlanCommand<typename F::Instance, typename F::Result> family_plan_command(
    const typename F::Options& options) {
  using Instance = typename F::Instance;
  using Result = typename F::Result;
  PlanCommand<Instance, Result> command;
  command.family = std::string(F::name);
  command.read = [](const std::string& text) {
    return io::located_in(F::root,
                          [&] { return io::JsonFace<F>::read_instance(io::parse_document(text)); });
  };
  command.plan = [options](const Instance& in) {
    return io::located_in(
        F::root, [&] { return api::plan_located<F>([&] { return F::plan(in, options); }); });
  };
  command.json = [](const Result& result) { return io::JsonFace<F>::write(result); };
  command.check = [](const Instance& in, const Result& result) {
    return io::located_in(
        F::root, [&] { return api::plan_located<F>([&] { return F::check(in, result); }); });
  };
  command.text = [](const Instance& in, const Result& result, const CheckResult& verdict) {
    return text::TextFace<F>::summary(in, result, verdict,
                                      "redist " + std::string(F::name) + " plan", "");
  };
  command.chart_limits = [](const Instance& in) { svg::ChartFace<F>::limits(in); };
  command.chart = [](const Instance& in, const Result& result, const std::string& title) {
    return svg::ChartFace<F>::chart(in, result, title);
  };
  return command;
}

// A chart over its size limits is not drawn, and the command still prints its result: runs
// `draw` and returns why it refused (the message of the limits' OptionError at --gantt), or empty.
// Other errors pass.
inline std::string chart_refusal(const std::function<void()>& draw) {
  try {
    draw();
    return {};
  } catch (const OptionError& e) {
    if (e.path() != "gantt" && e.path() != "--gantt") throw;
    return e.message();
  }
}

// After the result: "warning: no chart written to FILE: <why>" on standard error.
inline void warn_no_chart(const std::string& gantt_file, const std::string& why) {
  if (!why.empty()) {
    std::cerr << "warning: no chart written to " << one_line(gantt_file) << ": " << why << "\n";
  }
}

template <class Instance, class Result>
int run_plan(const PlanCommand<Instance, Result>& command, const std::string& instance_file,
             const std::string& gantt_file, const std::string& format) {
  const Instance instance =
      read_instance_as(command.family, "plan", read_input(instance_file, "instance"), command.read);
  std::string no_chart;  // why no chart is drawn, by the limits known before planning or after
  if (!gantt_file.empty()) no_chart = chart_refusal([&] { command.chart_limits(instance); });
  const Result result = command.plan(instance);
  if (!gantt_file.empty() && no_chart.empty()) {
    std::string svg;
    no_chart = chart_refusal(
        [&] { svg = command.chart(instance, result, "redist " + command.family + " plan"); });
    if (no_chart.empty()) write_text_file(gantt_file, svg, "--gantt");
  }
  if (format == "text") {
    print_result(command.text(instance, result, command.check(instance, result)));
  } else {
    print_result(command.json(result));
  }
  warn_no_chart(gantt_file, no_chart);
  return 0;
}

// The typed `check` command of a family: `Document` is the schedule document as read (the typed
// schedule and which claims it states); the verdict is printed as every family prints it
// ({"valid": ...}), or with --format text as text::check_summary, and gives the exit code (0
// valid, 1 invalid). With --gantt, a valid schedule's picture is written; an invalid one's too
// when the family has `invalid_chart` (the schedule with the first violation marked in red), else
// none. A file of the wrong kind, or the two files swapped, is said so (instance_mistake,
// output_mistake, swapped_mistake).
template <class Instance, class Document>
struct CheckCommand {
  std::string family;
  std::function<Instance(const std::string& text)> read;
  std::function<Document(const std::string& text)> read_schedule;
  std::function<CheckResult(const Instance&, const Document&)> check;
  std::function<void(const Instance&, const Document&)> chart_limits;
  std::function<std::string(const Instance&, const Document&, const std::string& title)> chart;
  std::function<std::string(const Instance&, const Document&, const std::string& title,
                            const CheckResult& verdict)>
      invalid_chart{};
};

template <class Instance, class Document>
int run_check(const CheckCommand<Instance, Document>& command, const std::string& instance_file,
              const std::string& schedule_file, const std::string& gantt_file,
              const std::string& format = "json") {
  const std::string noun = io::output_noun(command.family);
  require_distinct_inputs(instance_file, schedule_file, ("instance and " + noun).c_str());
  // Each text lives only while it is read: the check holds the documents, not their text too
  // (a schedule of 10^7 pieces is hundreds of MB of text).
  const Instance instance = [&] {
    const std::string instance_text = read_input(instance_file, "instance");
    try {
      return command.read(instance_text);
    } catch (const InputError&) {
      if (auto swapped = swapped_mistake(instance_text, read_second(schedule_file), command.family))
        throw *swapped;
      if (auto mistake = instance_mistake(instance_text, command.family, "check")) throw *mistake;
      throw;
    }
  }();
  const Document schedule = [&] {
    const std::string schedule_text = read_input(schedule_file, noun);
    try {
      return command.read_schedule(schedule_text);
    } catch (const InputError&) {
      if (auto mistake = output_mistake(schedule_text, command.family)) throw *mistake;
      throw;
    }
  }();
  std::string no_chart;  // why no chart is drawn (its size limits), or empty
  if (!gantt_file.empty()) {
    no_chart = chart_refusal([&] { command.chart_limits(instance, schedule); });
  }
  const CheckResult verdict = command.check(instance, schedule);
  const std::string title = "redist " + command.family + " check";
  const bool drawn = verdict.valid || command.invalid_chart;
  if (!gantt_file.empty() && no_chart.empty() && drawn) {
    std::string svg;
    no_chart = chart_refusal([&] {
      svg = verdict.valid ? command.chart(instance, schedule, title)
                          : command.invalid_chart(instance, schedule, title, verdict);
    });
    if (no_chart.empty()) write_text_file(gantt_file, svg, "--gantt");
  }
  int status = 0;
  if (format == "text") {
    print_result(text::check_summary(verdict, "redist " + command.family + " check", noun));
    status = verdict.valid ? 0 : 1;
  } else {
    status = print_verdict(verdict);
  }
  warn_no_chart(gantt_file, no_chart);
  return status;
}

// The check command of a family of the list, from its faces: the JSON face reads the instance
// and the result document and gives the validator's verdict on it, as check_json does; the
// chart face draws the result, an invalid one with its conflict in red.
template <FamilyWithFaces F>
CheckCommand<typename F::Instance, typename io::JsonFace<F>::Document> family_check_command() {
  using Instance = typename F::Instance;
  using Face = io::JsonFace<F>;
  using Document = typename Face::Document;
  CheckCommand<Instance, Document> command;
  command.family = std::string(F::name);
  command.read = [](const std::string& text) {
    return io::located_in(F::root, [&] { return Face::read_instance(io::parse_document(text)); });
  };
  command.read_schedule = [](const std::string& text) {
    return io::located_in(F::root, [&] { return Face::read_document(text); });
  };
  command.check = [](const Instance& in, const Document& document) {
    return io::located_in(F::root, [&] { return Face::check(in, document); });
  };
  command.chart_limits = [](const Instance& in, const Document& document) {
    svg::ChartFace<F>::limits(in, Face::result(document));
  };
  command.chart = [](const Instance& in, const Document& document, const std::string& title) {
    return svg::ChartFace<F>::chart(in, Face::result(document), title);
  };
  command.invalid_chart = [](const Instance& in, const Document& document, const std::string& title,
                             const CheckResult& verdict) {
    const svg::Conflict conflict{verdict.reason, verdict.entries};
    return svg::ChartFace<F>::chart(in, Face::result(document), title, &conflict);
  };
  return command;
}

// The help of a choice: one line per (name, description), below the option.
std::string choices(std::initializer_list<std::pair<const char*, const char*>> names);
std::string choices(const std::vector<AlgorithmName>& table);
// Ends a command's help with an example instance and a command line that uses a bundled file.
void add_example(CLI::App* command, const char* instance, const char* command_line);
// Adds `--time-limit SECONDS` to a plan command whose planners search: a finite number > 0
// (anything else is refused with the one error line naming the option); 0 in `seconds` means
// none was given. time_limit_of turns it into the planners' option.
void add_time_limit_option(CLI::App* command, double& seconds);
inline std::optional<double> time_limit_of(double seconds) {
  return seconds > 0 ? std::optional<double>(seconds) : std::nullopt;
}
// Adds `--format json|text` to a command: `json` the document of docs/formats.md, `text` a
// readable summary of the same result.
void add_format_option(CLI::App* command, std::string& format);

// The help of a family's check command: what it validates, its two files and its picture.
struct CheckHelp {
  const char* description;  // "Validate a schedule against an instance"
  const char* instance;     // "Instance JSON file ('-': stdin)"
  const char* document;     // "Schedule JSON file ('-': stdin)"
  const char* chart;        // what --gantt draws
};

// Adds `check INSTANCE DOCUMENT [--gantt FILE] [--format json|text]` to the family's command:
// family_check_command<F> run by run_check. The document's name is io::output_noun's.
template <FamilyWithFaces F>
void add_family_check_command(CLI::App* family, Action& action, const CheckHelp& help) {
  struct Files {
    std::string instance, document, gantt, format = "json";
  };
  auto files = std::make_shared<Files>();
  CLI::App* check = family->add_subcommand("check", help.description);
  check->add_option("instance", files->instance, help.instance)->required();
  check->add_option(io::output_noun(F::name), files->document, help.document)->required();
  check->add_option("--gantt", files->gantt, help.chart);
  add_format_option(check, files->format);
  check->callback([&action, files] {
    action = [files] {
      return run_check(family_check_command<F>(), files->instance, files->document, files->gantt,
                       files->format);
    };
  });
}

}  // namespace redist::cli
