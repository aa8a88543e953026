// redist: plans and checks data redistributions (formats and exit codes: docs/formats.md).
//
// Exit codes (docs/formats.md): 0 success; 1 `check` found the schedule invalid; 2 bad input or
// usage, with one line `error: <what> (at <where>)` on standard error and nothing on standard
// output; 3 an internal error; 4 a step of an experiment that runs another program failed.
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "apps/redist/cli.hpp"
#include "apps/redist/default_commands.hpp"
#include "apps/redist/progress.hpp"
#include "apps/strict_numbers.hpp"
#include "experiments/ring_sim/subprocess.hpp"
#include "redist/api/families.hpp"
#include "redist/common/error.hpp"
#include "redist/io/located.hpp"
#include "redist/io/options.hpp"
#include "redist/io/suggest.hpp"

namespace {

// The one `error:` line of every failure, whatever the message holds (docs/formats.md).
int print_error(const std::string& message, int code) {
  redist::cli::stop_progress();
  std::cerr << "error: " << redist::one_line(message, 1000) << "\n";
  return code;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

// When the words of the command line leave the command tree (`redist rign plan`, `redist ring
// paln`) or stop before a command (`redist ring`), what to say instead of CLI11's "A subcommand
// is required": the word, the command nearest to it, or the commands available. "" when the
// command line names a command (CLI11's error then stands). No option above a command takes a
// value.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
  const CLI::App* current = &app;
  std::string path = "redist";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const std::vector<std::string> names = command_names(*current);
    if (names.empty()) return "";
    if (word.starts_with("-")) {
      if (current->get_option_no_throw(word.substr(0, word.find('='))) != nullptr) continue;
      return fmt::format("unknown option '{}' of '{}' (expected a command: {})",
                         redist::one_line(word, 40), path, fmt::join(names, ", "));
    }
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : current->get_subcommands({})) {
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) {
      const std::string near = redist::io::closest_name(word, names);
      return near.empty() ? fmt::format("unknown command '{} {}' (expected one of: {})", path,
                                        redist::one_line(word, 40), fmt::join(names, ", "))
                          : fmt::format("unknown command '{} {}' (did you mean '{} {}'?)", path,
                                        redist::one_line(word, 40), path, near);
    }
    current = next;
    path += " " + word;
  }
  const std::vector<std::string> names = command_names(*current);
  if (names.empty()) return "";
  return fmt::format("'{}' needs a command: {}", path, fmt::join(names, ", "));
}

// The command the parsed line runs ("redist ring plan"), and whether it takes --time-limit.
std::string command_path(const CLI::App& app, bool& has_time_limit) {
  std::string path = "redist";
  const CLI::App* current = &app;
  for (;;) {
    const std::vector<CLI::App*> chosen = current->get_subcommands();
    if (chosen.empty()) break;
    current = chosen.front();
    path += " " + current->get_name();
  }
  has_time_limit = current->get_option_no_throw("--time-limit") != nullptr;
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist: data redistribution and load balancing on heterogeneous platforms"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "redist 0.1.0");
  redist::cli::Action action;
  redist::cli::ExperimentRegistry experiments;
  // The families' commands, in the list's order (redist/api/families.hpp): their own, or else
  // plan and check from their faces (default_commands.hpp).
  redist::for_each_family(redist::Families{}, [&]<class F>() {
    const auto commands = redist::cli::family_commands().find(F::name);
    if (commands == redist::cli::family_commands().end()) {
      redist::cli::add_default_family_commands<F>(app, action);
    } else {
      commands->second(app, action, experiments);
    }
  });
  redist::cli::register_demo_command(app, action);
  redist::cli::register_balance_commands(app, action, experiments);
  redist::cli::register_dropin_experiment(experiments);
  redist::cli::register_experiment_command(app, action, experiments);
  redist::cli::strict_numbers(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string command = unknown_command(app, argc, argv);
    if (!command.empty()) return print_error(command + " (at command line)", 2);
    return print_error(redist::cli::error_line(e), 2);
  }
  int code = 2;
  try {
    bool has_time_limit = false;
    const std::string command = command_path(app, has_time_limit);
    redist::cli::start_progress(command, has_time_limit);
    code = action ? action() : 2;
    redist::cli::stop_progress();
  } catch (const redist::InputError& e) {
    return print_error(redist::io::with_field_meaning(redist::io::located(e, "$")).what(), 2);
  } catch (const redist::experiments::StepFailed& e) {
    return print_error(std::string(e.what()) + " (at " + e.program() + ")", 4);
  } catch (const std::bad_alloc&) {
    return print_error("out of memory (at redist): use a smaller instance", 3);
  } catch (const std::exception& e) {
    // Not a user error: a bug. Still one line, and a distinct exit code.
    return print_error(std::string("internal error: ") + e.what() + " (at redist)", 3);
  }
  // A full disk or a closed pipe must not pass for success.
  std::cout.flush();
  if (!std::cout) return print_error("cannot write the output (at standard output)", 2);
  return code;
}
