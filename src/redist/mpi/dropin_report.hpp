// What the drop-in did (redist/mpi/dropin.h): every pattern it saw and what it chose, as the JSON
// report of docs/formats.md ("Drop-in report"). MPI-free: the engine fills it, this writes it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace redist::mpi::dropin {

struct PatternReport {
  std::string hash;        // of the message matrix (matrix_hash)
  std::int64_t ranks = 0;  // of the communicator
  std::int64_t bytes = 0;  // moved between distinct ranks per call
  std::int64_t messages = 0;
  std::int64_t calls = 0;
  std::int64_t cache_hits = 0;
  std::string choice = "native";  // what the pattern runs as now: "redist" or "native"
  std::string reason;
  std::string algorithm;  // the planner, empty when none ran
  double lower_bound_s = -1.0;
  double predicted_native_s = -1.0;  // -1: not measured
  double predicted_redist_s = -1.0;  // -1: not planned
  double plan_s = 0.0;
  std::int64_t native_calls = 0, redist_calls = 0;
  double native_s = 0.0, redist_s = 0.0;  // measured, summed over the calls (max over ranks)
  std::int64_t native_measured = 0, redist_measured = 0;
  bool owned = false;  // this rank is rank 0 of the pattern's communicator: it knows everything
};

struct Report {
  std::int64_t ranks = 0;  // of MPI_COMM_WORLD
  std::string mode;        // REDIST_ALLTOALLV
  double min_gain = 0.0;
  std::string platform;  // where the platform came from
  double calibration_s = 0.0;
  std::vector<PatternReport> patterns;
  std::map<std::string, std::int64_t> fallbacks;  // calls passed to the native call, by reason
};

// One pattern as a JSON object on one line; measured_s is the mean measured time per call of the
// pattern's current choice (-1 when none was measured).
std::string pattern_json(const PatternReport& pattern);

// The report as one JSON document ({"report": {...}}): its patterns, then `more_patterns`
// (pattern_json lines gathered from other ranks).
std::string report_json(const Report& report, const std::string& more_patterns = {});

}  // namespace redist::mpi::dropin
