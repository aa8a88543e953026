// The MPI-free part of the drop-in (redist/mpi/dropin.h, docs/dropin.md): the patterns a
// communicator has seen, how rank 0 turns a gathered message matrix into an exchange instance on
// the calibrated platform, and the rule that chooses between redist's plan and the native call.
//
// A pattern is the matrix of bytes every rank sends every other in one call. Each rank knows its
// own row (what it sends to and receives from every rank). The cache keeps, per communicator, up
// to kCacheEntries patterns; each rank stores its own row of each. A call's row is compared with
// every cached row (hash first, then the row): one word per slot, 0 when equal; the words' maximum
// over the ranks (one MPI_Allreduce) is 0 for a slot exactly when every rank's row equals its row
// of that slot, that is when the whole matrix is the cached one. No hash decides equality, so no
// collision can run a plan for another pattern. Slots are filled and evicted (least recently used)
// by the same rule on every rank, from agreed words only, so every rank's cache stays the same.
// Cost per call: O(p) to hash the row, O(p) per slot whose hash matches; O(kCacheEntries) words.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "redist/exchange/model.hpp"
#include "redist/exchange/platform.hpp"
#include "redist/mpi/transfers.hpp"

namespace redist::mpi::dropin {

inline constexpr std::size_t kCacheEntries = 16;

// How the drop-in chooses (REDIST_ALLTOALLV).
enum class Mode { auto_choice, always, never };

// What a pattern runs as.
enum class Choice { native, redist };

// This rank's row of a pattern: bytes to and from every rank (the rank's own entry included).
struct Row {
  std::vector<std::int64_t> send, recv;
  std::uint64_t hash = 0;  // of both, set by seal()
  void seal();
  bool operator==(const Row& other) const {
    return hash == other.hash && send == other.send && recv == other.recv;
  }
};

// A gathered pattern on rank 0: row-major `ranks x ranks` bytes, sent (send[i * ranks + j]: from
// i to j) and expected (recv[j * ranks + i]: what j expects from i).
struct Matrix {
  std::size_t ranks = 0;
  std::vector<std::int64_t> send, recv;
};

// Auto mode's measurements of one pattern (each time the largest over the ranks) and its rules.
// The native call is timed kNativeRuns times before the pattern is planned, and the median of
// its last kNativeRuns runs is the time to beat (a first call often pays for connections that
// later ones do not). A plan is kept while the median of its first kProbeRuns runs, and then of
// every kWindow runs, is not slower than that; after each verdict one native call is timed again,
// so that the time to beat follows the machine's state instead of the pattern's first calls. A
// plan that loses is dropped after at most kProbeRuns runs, one that starts losing later after a
// window; a plan that wins pays one native call in kWindow + 1. Medians, so that one lucky or
// one preempted run decides nothing.
class Trial {
 public:
  static constexpr std::size_t kNativeRuns = 3;
  static constexpr std::size_t kProbeRuns = 3;
  static constexpr std::size_t kWindow = 16;
  void add_native(double seconds);
  bool native_known() const { return native_.size() >= kNativeRuns; }
  double native() const;  // the median of the last kNativeRuns native runs; -1 before any
  // Whether the next call of a kept plan should be a native call, timed.
  bool wants_native() const { return probed_ && redist_.empty() && since_native_ > 0; }
  // Adds a run of the plan; true when the plan must be dropped for the native call.
  bool add_redist(double seconds);

 private:
  std::vector<double> native_, redist_;  // redist_: the runs since the last verdict
  std::size_t since_native_ = 0;         // runs of the plan since the last native run
  bool probed_ = false;
};

// A cached pattern, as one rank knows it.
struct Entry {
  Row row;
  std::int64_t last_used = 0;
  Choice choice = Choice::native;
  bool inconsistent = false;  // counts do not match between ranks: never run
  bool decided = false;       // rank 0 has planned (or refused) it and every rank knows
  Trial trial;                // auto mode's measurements
  RankTransfers transfers;    // this rank's part of the plan, when choice is redist
  std::size_t stats = 0;      // index of the pattern in the process's report
  Matrix matrix;              // rank 0 only, until decided: the gathered pattern
};

class PatternCache {
 public:
  // words[k] = 0 when `row` equals this rank's row of slot k, 1 otherwise (empty slots: 1).
  void mismatches(const Row& row, std::span<std::int64_t> words) const;
  // The slot whose word is 0 after the maximum over the ranks, or -1.
  static int hit(std::span<const std::int64_t> words);
  // Whether a slot with this rank's `row` runs as a plan (the agreement may still find that
  // another rank's row differs).
  bool runs_plan(const Row& row) const;
  // Takes a slot for a new pattern (an empty one, else the least recently used) and returns it.
  int insert(Row row, std::int64_t now);
  Entry& at(int slot) { return *slots_[static_cast<std::size_t>(slot)]; }

 private:
  std::array<std::optional<Entry>, kCacheEntries> slots_;
};

// Why the matrix cannot be an exchange (counts that do not match between two ranks, or a rank's
// own block sent and received with different sizes), or empty.
std::string mismatch(const Matrix& matrix);

// A 64-bit FNV-1a hash of the matrix, in hex: the name of the pattern in reports.
std::string matrix_hash(const Matrix& matrix);

// The instance of the matrix's off-diagonal entries on the platform (instance_on).
exchange::Instance matrix_instance(const Matrix& matrix, const exchange::Platform& platform);

// The planner the drop-in uses at this size: the cheapest that meets the bound in practice
// (docs/dropin.md): without latency `preemptive` (optimal) up to kPreemptiveMessages messages
// and within its own limit (exchange::preemptive_plans), else `whole` (one piece per message,
// within 2x of the bound and near it in practice); with latency `auto` up to kAutoMessages, else
// `whole`; with a backbone `whole`.
inline constexpr std::size_t kPreemptiveMessages = 20'000;
inline constexpr std::size_t kAutoMessages = 2'000;
std::string planner_for(const exchange::Instance& instance);

// Rank 0's decision for a new pattern, and what the report says of it.
struct Decision {
  Choice choice = Choice::native;
  std::string algorithm;             // the planner used, empty when none ran
  std::string reason;                // why, in a few words
  double lower_bound = 0.0;          // seconds, the ports (and backbone) bound
  double predicted_native = -1.0;    // seconds, the measured native call, or -1 (not measured)
  double predicted_redist = -1.0;    // seconds: the plan's makespan and the agreement's cost
  double plan_seconds = 0.0;         // wall time of planning and checking
  std::vector<RankTransfers> ranks;  // every rank's transfers when choice is redist
};

// Decides for a consistent matrix. `native_seconds`: the native call's measured time (auto mode
// measures it first), or empty. auto: no plan when the lower bound is within `min_gain` of the
// native time (no plan can gain enough); else plan, check, and choose redist when its predicted
// time is at most (1 - min_gain) of the native one. always: plan and choose redist. A plan that
// fails the validator is never used (choice native, the reason says why).
Decision decide(const Matrix& matrix, const exchange::Platform& platform, Mode mode,
                std::optional<double> native_seconds, double min_gain);

}  // namespace redist::mpi::dropin
