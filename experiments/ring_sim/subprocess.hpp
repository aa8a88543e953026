// Running another program of the toolkit and collecting what it printed: `redist experiment
// ring-sim` runs redist-ring-sim (which carries SimGrid, kept out of `redist`) once per scenario,
// a few at a time.
#pragma once

#include <string>
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

}  // namespace redist::experiments
