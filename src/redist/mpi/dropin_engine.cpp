// The drop-in's engine: the agreement on the pattern of every call, the gather and decision on
// rank 0 for a new pattern, the choice between the plan and the native call, and the report
// (docs/dropin.md says why each step is there and what it costs).
#include "redist/mpi/dropin_engine.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "redist/mpi/communicator.hpp"
#include "redist/mpi/dropin_call.hpp"
#include "redist/mpi/dropin_pattern.hpp"
#include "redist/mpi/dropin_report.hpp"
#include "redist/mpi/dropin_state.hpp"
#include "redist/mpi/exchange.hpp"

namespace redist::mpi::dropin {

namespace {

// ---------------------------------------------------------------------------------------------
// The agreement of every call, and the decision on a new pattern

// The words of a call's agreement: one per cache slot (0 where this rank's row matches), then:
enum Word : std::size_t {
  kError = kCacheEntries,  // the largest MPI error class of a rank's arguments
  kUnsupported,            // a rank cannot move its datatype's bytes
  kNoNative,               // a rank's counts do not fit the native call
  kElapsed,                // the previous call's time on this rank, nanoseconds (its maximum)
  kWords
};

// Returns `code` as MPI's calls do: through the caller's communicator's error handler.
int fail(MPI_Comm comm, int code) {
  if (code != MPI_SUCCESS) MPI_Comm_call_errhandler(comm, code);
  return code;
}

// Adds the previous call's agreed time (the largest over the ranks) to its pattern; in auto mode
// a plan that loses to the native call is dropped (Trial says when).
void record_previous(CommState& st, std::int64_t nanoseconds) {
  const LastCall last = std::exchange(st.last, LastCall{});
  if (last.slot < 0) return;
  Entry& e = st.cache.at(last.slot);
  const double seconds = static_cast<double>(nanoseconds) * 1e-9;
  PatternReport& r = report().patterns[e.stats];
  if (last.choice == Choice::native) {
    r.native_s += seconds, ++r.native_measured;
    e.trial.add_native(seconds);
    return;
  }
  r.redist_s += seconds, ++r.redist_measured;
  if (settings().mode == Mode::auto_choice && e.trial.add_redist(seconds)) {
    e.choice = Choice::native;
    r.choice = "native";
    r.reason = "its runs were slower than the native call's (medians)";
  }
}

// Collective on a new pattern: rank 0 gathers every rank's row (2p words each) and keeps the
// matrix in its entry; every rank learns whether the counts match (one broadcast). Patterns whose
// counts do not match are never run: the native call could wait forever on them.
void gather_pattern(CommState& st, Entry& e, const Local& l) {
  MPI_Comm comm = st.comm.get();
  const auto p = static_cast<std::size_t>(st.comm.size());
  const bool root = st.comm.rank() == 0;
  std::vector<std::int64_t> mine(2 * p), all(root ? 2 * p * p : 0);
  std::copy(l.row.send.begin(), l.row.send.end(), mine.begin());
  std::copy(l.row.recv.begin(), l.row.recv.end(), mine.begin() + static_cast<std::ptrdiff_t>(p));
  MPI_Gather(mine.data(), static_cast<int>(2 * p), MPI_INT64_T, all.data(), static_cast<int>(2 * p),
             MPI_INT64_T, 0, comm);
  std::int64_t broken = 0;
  if (root) {
    Matrix& m = e.matrix;
    m = {p, std::vector<std::int64_t>(p * p), std::vector<std::int64_t>(p * p)};
    for (std::size_t i = 0; i < p; ++i) {
      const auto row = all.begin() + static_cast<std::ptrdiff_t>(2 * p * i);
      std::copy(row, row + static_cast<std::ptrdiff_t>(p),
                m.send.begin() + static_cast<std::ptrdiff_t>(i * p));
      std::copy(row + static_cast<std::ptrdiff_t>(p), row + static_cast<std::ptrdiff_t>(2 * p),
                m.recv.begin() + static_cast<std::ptrdiff_t>(i * p));
    }
    PatternReport& r = report().patterns[e.stats];
    r.hash = matrix_hash(m);
    r.ranks = static_cast<std::int64_t>(p);
    for (std::size_t i = 0; i < p; ++i) {
      for (std::size_t j = 0; j < p; ++j) {
        if (i != j && m.send[i * p + j] > 0) r.bytes += m.send[i * p + j], ++r.messages;
      }
    }
    const std::string why = mismatch(m);
    if (!why.empty()) {
      broken = 1;
      r.reason = "counts do not match: " + why;
      m = {};
    }
  }
  MPI_Bcast(&broken, 1, MPI_INT64_T, 0, comm);
  e.inconsistent = broken != 0;
}

// Collective: rank 0 decides on the gathered pattern (with the native call's measured time in
// auto mode), tells every rank the choice and sends each its transfers.
void decide_pattern(CommState& st, Entry& e) {
  const bool root = st.comm.rank() == 0;
  std::int64_t choice = static_cast<std::int64_t>(Choice::native);
  std::vector<RankTransfers> plans;
  if (root) {
    PatternReport& r = report().patterns[e.stats];
    const std::optional<double> native =
        e.trial.native_known() ? std::optional<double>(e.trial.native()) : std::nullopt;
    try {
      Decision d = decide(e.matrix, st.platform, settings().mode, native, settings().min_gain);
#ifdef SMPI_H
      // Under SimGrid SMPI, rank 0's simulated clock advances by what planning took here (a
      // simulated sleep: smpi_execute would scale it by smpi/host-speed), so that the other ranks
      // wait for it as they would on a real machine.
      smpi_usleep(static_cast<useconds_t>(d.plan_seconds * 1e6));
#endif
      choice = static_cast<std::int64_t>(d.choice);
      r.reason = d.reason, r.algorithm = d.algorithm, r.lower_bound_s = d.lower_bound;
      r.predicted_native_s = d.predicted_native, r.predicted_redist_s = d.predicted_redist;
      r.plan_s = d.plan_seconds;
      plans = std::move(d.ranks);
    } catch (const std::exception& ex) {
      r.reason = std::string("planning failed: ") + ex.what();
    }
    r.choice = choice == static_cast<std::int64_t>(Choice::redist) ? "redist" : "native";
    e.matrix = {};
  }
  MPI_Bcast(&choice, 1, MPI_INT64_T, 0, st.comm.get());
  // Each rank's transfers first: when handing them out fails (every rank throws alike), the
  // pattern stays undecided.
  if (static_cast<Choice>(choice) == Choice::redist)
    e.transfers = scatter_transfers(st.comm, plans);
  e.decided = true;
  e.choice = static_cast<Choice>(choice);
}

// The native call, timed (the time is agreed on at the next call).
int run_native(CommState& st, int slot, const Native& native) {
  const double start = MPI_Wtime();
  const int code = native();
  st.last = {slot, Choice::native, static_cast<std::int64_t>((MPI_Wtime() - start) * 1e9)};
  ++report().patterns[st.cache.at(slot).stats].native_calls;
  return code;
}

int run_plan_timed(CommState& st, int slot, const Call& c, const Local& l, Prepared* pre) {
  const double start = MPI_Wtime();
  const int code = run_plan(st, st.cache.at(slot), c, l, pre);
  st.last = {slot, Choice::redist, static_cast<std::int64_t>((MPI_Wtime() - start) * 1e9)};
  ++report().patterns[st.cache.at(slot).stats].redist_calls;
  return fail(c.comm, code);
}

// A cached pattern: counts that do not match are MPI's truncation error on every rank; a pattern
// not decided yet is decided now (in auto mode its native time came with this call's agreement);
// then it runs as decided.
int run_entry(CommState& st, int slot, const Call& c, const Local& l, const Native& native,
              Prepared* pre = nullptr) {
  Entry& e = st.cache.at(slot);
  if (e.inconsistent) return fail(c.comm, MPI_ERR_TRUNCATE);
  if (!e.decided) {
    const bool measure_first =
        settings().mode == Mode::auto_choice && native && !e.trial.native_known();
    if (measure_first) return run_native(st, slot, native);
    decide_pattern(st, e);
  }
  const bool recheck = settings().mode == Mode::auto_choice && native && e.trial.wants_native();
  if (e.choice == Choice::redist && !recheck) return run_plan_timed(st, slot, c, l, pre);
  // Counts beyond an int have no native call: a pattern that could not be planned is refused.
  if (!native) return fail(c.comm, MPI_ERR_COUNT);
  return run_native(st, slot, native);
}

// A pattern not in the cache: its matrix is gathered and checked; auto mode then runs the native
// call (timed: the plan is made at the pattern's next call, if it comes), always mode plans now.
int new_pattern(CommState& st, const Call& c, const Local& l, const Native& native) {
  const int slot = st.cache.insert(l.row, st.now);
  Entry& e = st.cache.at(slot);
  e.stats = report().patterns.size();
  PatternReport& r = report().patterns.emplace_back();
  r.calls = 1;
  r.owned = st.comm.rank() == 0;
  gather_pattern(st, e, l);
  return run_entry(st, slot, c, l, native);
}

// The call, once the communicator has a state that plans: the agreement on the pattern (one
// MPI_Allreduce), then the cached pattern or a new one.
int planned_call(CommState& st, const Call& c, const Native& native) {
  const Local l = examine(c, st);
  std::int64_t words[kWords] = {};
  st.cache.mismatches(l.row, std::span<std::int64_t>(words, kCacheEntries));
  words[kError] = l.error;
  words[kUnsupported] = l.unsupported ? 1 : 0;
  words[kNoNative] = native ? 0 : 1;
  words[kElapsed] = st.last.nanoseconds;
  // A cached pattern that runs as a plan: its buffers are prepared now, their failure agreed on
  // with the pattern (one reduction in the steady state).
  std::optional<Prepared> pre;
  if (l.error == MPI_SUCCESS && !l.unsupported && st.cache.runs_plan(l.row)) {
    prepare(c, l, st.comm.get(), static_cast<std::size_t>(st.comm.rank()), pre.emplace());
    if (pre->code != MPI_SUCCESS) words[kError] = pre->code;
  }
  const Agreement a = agree(st.comm.get(), CallLog("redist_alltoallv", st.comm.rank()), words);
  if (a.failed) return fail(c.comm, MPI_ERR_INTERN);
  record_previous(st, words[kElapsed]);
  if (words[kError] != 0) {
    const int own = l.error != MPI_SUCCESS ? l.error : pre ? pre->code : MPI_SUCCESS;
    return fail(c.comm, static_cast<int>(own != MPI_SUCCESS ? own : words[kError]));
  }
  const Native usable = words[kNoNative] == 0 ? native : Native{};
  if (words[kUnsupported] != 0) {
    count_fallback("datatype");
    return usable ? usable() : fail(c.comm, MPI_ERR_TYPE);
  }
  ++st.now;
  const int slot = PatternCache::hit(std::span<const std::int64_t>(words, kCacheEntries));
  if (slot < 0) return new_pattern(st, c, l, usable);
  Entry& e = st.cache.at(slot);
  e.last_used = st.now;
  PatternReport& r = report().patterns[e.stats];
  ++r.calls, ++r.cache_hits;
  return run_entry(st, slot, c, l, usable, pre ? &*pre : nullptr);
}

// Writes the report with `lines` (one pattern's JSON per line) as its patterns.
bool write_lines(const std::string& path, const std::string& lines, int world_size) {
  Report r = report();
  r.patterns.clear();
  r.ranks = world_size;
  r.mode = settings().mode_name;
  r.min_gain = settings().min_gain;
  if (r.platform.empty()) r.platform = settings().platform_path;
  std::ofstream out(path);
  out << report_json(r, lines);
  return static_cast<bool>(out);
}

// The patterns this rank reports (those of the communicators whose rank 0 it is), as JSON lines.
std::string owned_patterns() {
  std::string lines;
  for (const PatternReport& p : report().patterns) {
    if (p.owned) lines += pattern_json(p) + "\n";
  }
  return lines;
}

// Collective over MPI_COMM_WORLD at MPI_Finalize: rank 0 gathers every rank's patterns and writes
// the report.
void gather_and_write(const std::string& path) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mine = owned_patterns();
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(lengths.size());
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (rank == 0) {
    int total = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) offsets[i] = total, total += lengths[i];
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, MPI_COMM_WORLD);
  if (rank == 0) write_lines(path, all, size);
}

// At MPI_Finalize (an attribute of MPI_COMM_SELF, deleted first): the report, when asked for.
void at_finalize() {
  static bool hooked = false;
  if (hooked) return;
  hooked = true;
  int keyval = MPI_KEYVAL_INVALID;
  auto write = [](MPI_Comm, int, void*, void*) -> int {
    if (!settings().report_path.empty()) gather_and_write(settings().report_path);
    return MPI_SUCCESS;
  };
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, write, &keyval, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
}

}  // namespace

int alltoallv(const Call& call, const Native& native) {
  const Settings& s = settings();
  if (s.mode == Mode::never && native) return native();
  std::lock_guard<std::mutex> lock(engine_lock());
  Inside guard;
  try {
    at_finalize();
    int inter = 0;
    if (MPI_Comm_test_inter(call.comm, &inter) != MPI_SUCCESS) {
      return native ? native() : fail(call.comm, MPI_ERR_COMM);
    }
    if (inter) {
      count_fallback("intercommunicator");
      return native ? native() : fail(call.comm, MPI_ERR_COMM);
    }
    CommState* st = state_of(call.comm);
    if (st == nullptr || !st->disabled.empty()) {
      count_fallback(st == nullptr ? "internal error" : "no platform");
      return native ? native() : fail(call.comm, MPI_ERR_OTHER);
    }
    return planned_call(*st, call, native);
  } catch (const std::exception& e) {  // the library's own failure: the native call instead
    warn(std::string("internal failure: ") + e.what() + "; the native call is used");
    count_fallback("internal error");
    return native ? native() : fail(call.comm, MPI_ERR_INTERN);
  }
}

int write_report(const char* path) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) return MPI_SUCCESS;
  return write_lines(path, owned_patterns(), size) ? MPI_SUCCESS : MPI_ERR_FILE;
}

}  // namespace redist::mpi::dropin
