// The command line of redist-mpi (redist_mpi_main.cpp): its options, the size limits of one run
// (docs/mpi.md, "Limits and extreme inputs") and the checks of the options, which every rank makes
// identically before any collective.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "redist/mpi/communicator.hpp"

namespace redist::mpi::driver {

// Size limits of one run (docs/mpi.md): beyond them a run needs more than a few GB or minutes.
inline constexpr std::int64_t kMaxRanks = 65'536;                        // mpirun -np
inline constexpr std::int64_t kMaxItemBytes = std::int64_t{64} << 20;    // --item-bytes, --bytes-on
inline constexpr std::int64_t kMaxRankBytes = std::int64_t{1} << 30;     // item buffers of one rank
inline constexpr std::int64_t kMaxStagingBytes = std::int64_t{1} << 30;  // staging of one rank
inline constexpr std::int64_t kMaxTotalItems = 100'000'000;              // items of the instance
inline constexpr std::int64_t kMaxRepeat = 100;                          // --repeat
inline constexpr std::int64_t kMaxMessages = 10'000'000;  // messages of one rank, all executions
inline constexpr std::int64_t kMaxRequests = 1 << 20;     // MPI requests one rank posts at once
inline constexpr double kMaxLoopWork = 1e9;               // messages x posted requests of one rank

// The command line. Every rank parses the same argv, so every check of check_args fails
// identically on every rank, before any collective that could deadlock.
struct Args {
  std::string instance_file, mode = "ring", algorithm = "auto", bytes_on, strategy = "redist";
  std::string format = "json";
  std::int64_t item_bytes = 8, segment_items = 1024, window = 0, sends_in_flight = 1;
  std::int64_t max_items = 100, repeat = 1, max_staging = -1, min_segments = 64;
  std::uint64_t seed = 0;
  bool random = false, unidirectional = false, calibrate = false, out_of_place = false;
  bool one_port = false;
  int bad_target = -1, negative = -1, overlap_on = -1;
  int bytes_rank = -1;             // --bytes-on R:B, parsed
  std::int64_t bytes_size = 0;     // B
  std::vector<std::string> given;  // long names of the options given
  bool has(const std::string& name) const {
    return std::find(given.begin(), given.end(), name) != given.end();
  }
};

// A refusal of the command line: an Error (every rank throws it alike; exit 2) naming the program.
Error usage(const std::string& message);

// Parses argv into `a`; returns false after printing --help (rank 0). Throws usage errors.
bool parse_args(int argc, char** argv, int rank, Args& a);

// Options that contradict each other, or are out of range, on `size` ranks; parses --bytes-on.
// The instance is not known yet.
void check_args(Args& a, int size);

}  // namespace redist::mpi::driver
