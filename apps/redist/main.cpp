// redist: plans and checks data redistributions (formats and exit codes: docs/formats.md).
//
// Exit codes (docs/formats.md): 0 success; 1 `check` found the schedule invalid; 2 bad input or
// usage, with one line `error: <what> (at <where>)` on standard error and nothing on standard
// output.
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "apps/redist/cli.hpp"
#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/located.hpp"
#include "redist/io/options.hpp"

namespace {

// The one `error:` line of every failure, whatever the message holds (docs/formats.md).
int print_error(const std::string& message, int code) {
  std::cerr << "error: " << redist::one_line(message, 1000) << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist: data redistribution and load balancing on heterogeneous platforms"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "redist 0.1.0");
  redist::cli::Action action;
  redist::cli::ExperimentRegistry experiments;
  redist::cli::register_ring_commands(app, action);
  redist::cli::register_demo_command(app, action);
  redist::cli::register_lau_commands(app, action, experiments);
  redist::cli::register_star_commands(app, action, experiments);
  redist::cli::register_dlt_commands(app, action);
  redist::cli::register_slicering_commands(app, action, experiments);
  redist::cli::register_balance_commands(app, action, experiments);
  redist::cli::register_exchange_commands(app, action, experiments);
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
    return print_error(redist::cli::error_line(e), 2);
  }
  int code = 2;
  try {
    code = action ? action() : 2;
  } catch (const redist::InputError& e) {
    return print_error(redist::io::with_field_meaning(redist::io::located(e, "$")).what(), 2);
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
