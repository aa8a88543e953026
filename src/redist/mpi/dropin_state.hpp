// The drop-in's state (redist/mpi/dropin.h, docs/dropin.md): its settings, read once from the
// environment; the process's report; and each communicator's state, an MPI attribute made at the
// first call on it: the library's duplicate communicator, the platform (a file, or calibrated at
// first use, a measurement shared by the communicators whose ranks it covered), the cache of
// patterns and the previous call's time.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "redist/exchange/platform.hpp"
#include "redist/mpi/communicator.hpp"
#include "redist/mpi/dropin_pattern.hpp"
#include "redist/mpi/dropin_report.hpp"

namespace redist::mpi::dropin {

// The most ranks whose pattern rank 0 gathers (2 p^2 words: 16 MiB at 1024 ranks).
inline constexpr int kMaxPlannedRanks = 1024;

struct Settings {
  Mode mode = Mode::auto_choice;
  std::string mode_name = "auto";
  std::string platform_path;  // empty: calibrate at first use
  double min_gain = 0.05;
  std::string report_path;
};

// The settings, read from the environment at the first use (a bad value: one error line, and
// the default or `never`).
const Settings& settings();

// One line `redist: error: TEXT` on standard error, once per process and text.
void warn(const std::string& text);

// The lock that serialises the engine's calls from different threads.
std::mutex& engine_lock();

// What this process has seen, for the report.
Report& report();
void count_fallback(const std::string& reason);

// While one lives, this thread is inside the engine (inside()).
struct Inside {
  Inside();
  ~Inside();
};

// The previous call on a communicator: its slot, what ran, its time on this rank.
struct LastCall {
  int slot = -1;
  Choice choice = Choice::native;
  std::int64_t nanoseconds = 0;
};

struct CommState {
  Communicator comm;     // the library's duplicate, MPI_ERRORS_RETURN
  std::string disabled;  // why the communicator only runs the native call, or empty
  exchange::Platform platform;
  PatternCache cache;
  std::int64_t now = 0;  // calls so far (the cache's clock)
  LastCall last;
};

// Collective over `comm`: its state, made at the first call (a duplicate communicator, the
// platform, an agreement that every rank has one). Null when the state cannot be made.
CommState* state_of(MPI_Comm comm);

}  // namespace redist::mpi::dropin
