// The shared ending of the sim/ programs' main(): the exit codes and error lines of every redist
// tool (docs/formats.md): 0 success; 2 bad input or usage, one line `error: <what> (at <where>)`
// on standard error and nothing on standard output; 3 an internal error.
#pragma once

#include <exception>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/located.hpp"

namespace redist::sim {

inline int print_error(const std::string& message, int code) {
  std::cerr << "error: " << one_line(message, 1000) << "\n";
  return code;
}

// Parses the command line; returns -1 when the program should go on, else its exit code (help
// printed, or a usage error reported).
inline int parse_command_line(CLI::App& app, int argc, char** argv) {
  cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return print_error(cli::error_line(e), 2);
  }
  return -1;
}

// Runs `body`, which writes the program's output on standard output, and maps what it throws to
// the exit codes above; a failed write of the output is exit 2.
template <class Body>
int run_tool(const std::string& program, Body&& body) {
  try {
    body();
  } catch (const InputError& e) {
    return print_error(redist::io::located(e, "$").what(), 2);
  } catch (const std::bad_alloc&) {
    return print_error("out of memory (at " + program + ")", 3);
  } catch (const std::exception& e) {
    return print_error(std::string("internal error: ") + e.what() + " (at " + program + ")", 3);
  }
  std::cout.flush();
  if (!std::cout) return print_error("cannot write the output (at standard output)", 2);
  return 0;
}

}  // namespace redist::sim
