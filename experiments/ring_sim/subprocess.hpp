// Running another program of the toolkit and collecting what it printed: `redist experiment
// ring-sim` runs redist-ring-sim (which carries SimGrid, kept out of `redist`) once per scenario,
// a few at a time.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace redist::experiments {

struct ProgramResult {
  int exit_code = -1;  // the program's exit status; 128 + N when signal N ended it
  std::string out, err;
};

// Runs `argv[0]` (a path, or a name looked for in PATH) with the arguments argv[1..] (no shell),
// waits, and returns its exit code and what it wrote on standard output and standard error. With
// `stderr_passes_through`, the program writes its standard error to this process's (progress of a
// long run seen as it happens) and `err` stays empty. Throws std::runtime_error when it cannot be
// started.
ProgramResult run_program(const std::vector<std::string>& argv, bool stderr_passes_through = false);

// The directory of the running executable (for the programs installed beside it).
std::string executable_directory();

// A step of an experiment that runs another program (a script, SimGrid, mpirun) failed: neither a
// mistake in the command line nor a bug of redist, but the other program's (or its
// environment's). The message says which step failed and why, in one line; `program` names the
// program. The command line prints `error: <message> (at <program>)` and exits 4
// (docs/formats.md).
class StepFailed : public std::runtime_error {
 public:
  StepFailed(const std::string& message, std::string program)
      : std::runtime_error(message), program_(std::move(program)) {}
  const std::string& program() const { return program_; }

 private:
  std::string program_;
};

// Why a program failed, in one line, from what it wrote on standard error: a Python traceback's
// error (the lines after its last frame, "RuntimeError: ..."), else its last non-empty line; ""
// when it wrote nothing.
std::string last_error_line(const std::string& err);

}  // namespace redist::experiments
