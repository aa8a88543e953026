// What one run of redist-mpi found (rank 0's report, docs/mpi.md), and its two renderings: the
// JSON line (`--format json`, the default, which scripts read) and a readable summary (`--format
// text`). Both render the same typed report, filled by the driver from the plan and from what the
// ranks measured; neither computes a value of its own. MPI-free. O(ranks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redist::mpi {

struct RunReport {
  std::string strategy;   // redist, alltoallv or linear
  std::string mode;       // ring or linear (the baselines: linear)
  std::string algorithm;  // the plan's algorithm, or the baseline's name
  int ranks = 0;
  std::int64_t items = 0;
  std::size_t item_bytes = 0;
  bool bidirectional = true;
  std::vector<std::int64_t> flows;  // flows[i]: net items over link i -> i + 1
  std::int64_t rotation = 0;
  std::int64_t segment_items = 0;
  std::optional<double> model_makespan;          // none for MPI_Alltoallv
  double measured_seconds = 0;                   // the slowest rank's first execution
  double check_seconds = 0;                      // the execution's collective checks, timed alone
  std::int64_t max_staging_bytes = 0;            // the most any rank staged (baselines: buffered)
  std::int64_t messages = 0, request_slots = 0;  // the largest rank's footprint
  std::int64_t bad_items = 0;                    // the most items out of place on one rank
  bool memory_ok = true;                         // staging within its bound and --max-staging-bytes
  std::int64_t repeat_bad_items = 0;  // wrong items over the --repeat executions, all ranks
  std::int64_t repeats = 1;           // --repeat
  bool verified() const { return bad_items == 0 && memory_ok && repeat_bad_items == 0; }
};

// The one JSON line of docs/mpi.md ({"strategy": ..., "verified": ...}), with its newline.
std::string run_report_json(const RunReport& report);

// The readable summary: a heading (strategy, items, ranks, verdict), then labelled facts (plan,
// flows, model makespan, measured time, staging, messages, verification) in text/summary.hpp's
// shape.
std::string run_report_text(const RunReport& report);

}  // namespace redist::mpi
