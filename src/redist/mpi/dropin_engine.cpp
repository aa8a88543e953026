// The drop-in's engine: settings, the per-communicator state (an MPI attribute), the agreement on
// the pattern, the gather and decision on rank 0 for a new pattern, and the execution of a plan on
// the caller's buffers (docs/dropin.md says why each step is there and what it costs).
#include "redist/mpi/dropin_engine.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/io/platform_json.hpp"
#include "redist/mpi/calibrate_platform.hpp"
#include "redist/mpi/communicator.hpp"
#include "redist/mpi/datatype.hpp"
#include "redist/mpi/dropin_pattern.hpp"
#include "redist/mpi/dropin_report.hpp"
#include "redist/mpi/exchange.hpp"

namespace redist::mpi::dropin {

namespace {

// ---------------------------------------------------------------------------------------------
// Settings and the process's report

// The most ranks whose pattern rank 0 gathers (2 p^2 words: 16 MiB at 1024 ranks).
constexpr int kMaxPlannedRanks = 1024;

struct Settings {
  Mode mode = Mode::auto_choice;
  std::string mode_name = "auto";
  std::string platform_path;  // empty: calibrate at first use
  double min_gain = 0.05;
  std::string report_path;
};

// One line on standard error, once per process and text.
void warn(const std::string& text) {
  static std::vector<std::string> said;
  if (std::find(said.begin(), said.end(), text) != said.end()) return;
  said.push_back(text);
  std::fprintf(stderr, "redist: error: %s\n", text.c_str());
}

Settings read_settings() {
  Settings s;
  if (const char* mode = std::getenv("REDIST_ALLTOALLV"); mode != nullptr && *mode != '\0') {
    const std::string m = mode;
    if (m == "auto" || m == "always" || m == "never") {
      s.mode = m == "auto" ? Mode::auto_choice : m == "always" ? Mode::always : Mode::never;
      s.mode_name = m;
    } else {
      warn(
          fmt::format("REDIST_ALLTOALLV is '{}', not auto, always or never: the native call is "
                      "used (at REDIST_ALLTOALLV)",
                      m));
      s.mode = Mode::never;
      s.mode_name = "never";
    }
  }
  if (const char* path = std::getenv("REDIST_PLATFORM")) s.platform_path = path;
  if (const char* gain = std::getenv("REDIST_MIN_GAIN"); gain != nullptr && *gain != '\0') {
    char* end = nullptr;
    errno = 0;
    const double g = std::strtod(gain, &end);
    if (errno != 0 || *end != '\0' || !(g >= 0.0 && g < 1.0)) {
      warn(
          fmt::format("REDIST_MIN_GAIN is '{}', not a number in [0, 1): {} is used (at "
                      "REDIST_MIN_GAIN)",
                      gain, s.min_gain));
    } else {
      s.min_gain = g;
    }
  }
  if (const char* report = std::getenv("REDIST_REPORT")) s.report_path = report;
  return s;
}

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

std::mutex& engine_lock() {
  static std::mutex m;
  return m;
}

Report& report() {
  static Report r;
  return r;
}

void count_fallback(const std::string& reason) { ++report().fallbacks[reason]; }

thread_local bool inside_engine = false;

struct Inside {
  Inside() { inside_engine = true; }
  ~Inside() { inside_engine = false; }
};

// ---------------------------------------------------------------------------------------------
// The state of a communicator

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

int state_keyval() {
  static int keyval = MPI_KEYVAL_INVALID;
  if (keyval == MPI_KEYVAL_INVALID) {
    auto release = [](MPI_Comm, int, void* state, void*) -> int {
      delete static_cast<CommState*>(state);
      return MPI_SUCCESS;
    };
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release, &keyval, nullptr);
  }
  return keyval;
}

// The platform file, read once per process: the platform, or why it cannot be used.
struct PlatformFile {
  std::optional<exchange::Platform> platform;
  std::string error;
};

const PlatformFile& platform_file(const std::string& path) {
  static const PlatformFile file = [&] {
    PlatformFile f;
    std::ifstream in(path);
    if (!in) {
      f.error = fmt::format("cannot read the platform file {} (at REDIST_PLATFORM)", path);
      return f;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
      f.platform = io::read_platform(text.str());
    } catch (const std::exception& e) {
      f.error = fmt::format("platform file {}: {}", path, e.what());
    }
    return f;
  }();
  return file;
}

// This communicator's ranks as ranks of MPI_COMM_WORLD.
std::vector<int> world_ranks(MPI_Comm comm, int size) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> mine(static_cast<std::size_t>(size)), theirs(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) mine[static_cast<std::size_t>(i)] = i;
  MPI_Group_translate_ranks(group, size, mine.data(), world, theirs.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return theirs;
}

// The platforms this process has calibrated, by the world ranks they cover.
std::vector<std::pair<std::vector<int>, exchange::Platform>>& calibrations() {
  static std::vector<std::pair<std::vector<int>, exchange::Platform>> all;
  return all;
}

// The platform of ranks `ranks` (world ranks) from a calibration that covered them all, if any.
std::optional<exchange::Platform> known_platform(const std::vector<int>& ranks) {
  for (const auto& [covered, platform] : calibrations()) {
    std::vector<int> rows;
    for (int r : ranks) {
      const auto at = std::find(covered.begin(), covered.end(), r);
      if (at == covered.end()) break;
      rows.push_back(static_cast<int>(at - covered.begin()));
    }
    if (rows.size() == ranks.size()) return exchange::sub_platform(platform, rows);
  }
  return std::nullopt;
}

// Calibration at first use: a communicator whose ranks were all measured before (the duplicates a
// library makes of MPI_COMM_WORLD, its sub-communicators) reuses that measurement, when every rank
// has one (one agreement); otherwise the communicator is measured (calibrate_platform).
std::string calibrated_platform(CommState& st) {
  const std::vector<int> ranks = world_ranks(st.comm.get(), st.comm.size());
  std::optional<exchange::Platform> known = known_platform(ranks);
  std::int64_t words[1] = {known ? 0 : 1};
  const Agreement a = agree(st.comm.get(), CallLog("calibration", st.comm.rank()), words);
  if (a.failed) return a.message;
  report().platform = "calibrated at first use";
  if (words[0] == 0) {
    st.platform = *known;
    return {};
  }
  const double start = MPI_Wtime();
  st.platform = calibrate_platform(st.comm.get());
  report().calibration_s += MPI_Wtime() - start;
  calibrations().emplace_back(ranks, st.platform);
  return {};
}

// The platform of the state's communicator, or the reason it has none (the same on every rank:
// every rank reads the same file; a calibration is collective and broadcast).
std::string find_platform(CommState& st) {
  const Settings& s = settings();
  const int size = st.comm.size();
  if (size > kMaxPlannedRanks) {
    return fmt::format("{} ranks: the drop-in plans for at most {}", size, kMaxPlannedRanks);
  }
  if (s.platform_path.empty()) return calibrated_platform(st);
  const PlatformFile& file = platform_file(s.platform_path);
  if (!file.platform) return file.error;
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (file.platform->ranks != static_cast<std::size_t>(world_size)) {
    return fmt::format(
        "platform file {} describes {} ranks, MPI_COMM_WORLD has {} (at "
        "platform.ranks)",
        s.platform_path, file.platform->ranks, world_size);
  }
  const std::vector<int> ranks = world_ranks(st.comm.get(), size);
  if (std::find(ranks.begin(), ranks.end(), MPI_UNDEFINED) != ranks.end()) {
    return "a communicator with ranks outside MPI_COMM_WORLD";
  }
  st.platform = exchange::sub_platform(*file.platform, ranks);
  report().platform = s.platform_path;
  return {};
}

// Collective over `comm`: its state, made at the first call (a duplicate communicator, the
// platform, an agreement that every rank has one). Null when the state cannot be made.
CommState* state_of(MPI_Comm comm) {
  CommState* st = nullptr;
  int found = 0;
  if (MPI_Comm_get_attr(comm, state_keyval(), &st, &found) != MPI_SUCCESS) return nullptr;
  if (found) return st;
  auto fresh = std::make_unique<CommState>();
  try {
    fresh->comm = Communicator(comm, "redist_alltoallv");
  } catch (const std::exception& e) {
    warn(e.what());
    return nullptr;
  }
  std::string why;
  try {
    why = find_platform(*fresh);
  } catch (const std::exception& e) {
    why = e.what();
  }
  std::int64_t words[1] = {why.empty() ? 0 : 1};
  const Agreement a =
      agree(fresh->comm.get(), CallLog("redist_alltoallv", fresh->comm.rank()), words);
  if (a.failed) why = a.message;
  if (why.empty() && words[0] != 0) why = "a rank has no platform";
  if (!why.empty()) {
    if (fresh->comm.rank() == 0) warn(why + "; the native call is used");
    fresh->disabled = why;
  }
  st = fresh.release();
  MPI_Comm_set_attr(comm, state_keyval(), st);
  return st;
}

// ---------------------------------------------------------------------------------------------
// A call's arguments, as this rank sees them

struct Local {
  Row row;
  int error = MPI_SUCCESS;  // an MPI error class of this rank's arguments
  bool unsupported = false;
  bool in_place = false;
  TypeLayout send, recv;
};

bool times(std::int64_t count, std::int64_t size, std::int64_t& bytes) {
  return !__builtin_mul_overflow(count, size, &bytes);
}

// Checks this rank's arguments and computes its row.
Local examine(const Call& c, const CommState& st) {
  Local l;
  l.in_place = c.sendbuf == MPI_IN_PLACE;
  const auto p = static_cast<std::size_t>(st.comm.size());
  l.row.send.assign(p, 0);
  l.row.recv.assign(p, 0);
  const MPI_Datatype stype = l.in_place ? c.recvtype : c.sendtype;
  const auto scounts = l.in_place ? c.recvcounts : c.sendcounts;
  if (describe(stype, true, st.comm.get(), l.send) != MPI_SUCCESS ||
      describe(c.recvtype, false, st.comm.get(), l.recv) != MPI_SUCCESS) {
    l.error = MPI_ERR_TYPE;
    return l;
  }
  bool sends = false, receives = false;
  for (std::size_t j = 0; j < p; ++j) {
    if (scounts[j] < 0 || c.recvcounts[j] < 0 || !times(scounts[j], l.send.size, l.row.send[j]) ||
        !times(c.recvcounts[j], l.recv.size, l.row.recv[j])) {
      l.error = MPI_ERR_COUNT;
      return l;
    }
    sends = sends || l.row.send[j] > 0;
    receives = receives || l.row.recv[j] > 0;
  }
  if ((sends && !l.in_place && c.sendbuf == nullptr) || (receives && c.recvbuf == nullptr)) {
    l.error = MPI_ERR_BUFFER;
    return l;
  }
  l.unsupported = (sends && !l.send.packable) || (receives && !l.recv.packable);
  l.row.seal();
  return l;
}

// ---------------------------------------------------------------------------------------------
// Running a plan on the caller's buffers

// Byte displacements of a packed buffer holding `bytes[j]` for every peer but `me`, in order.
std::vector<std::int64_t> packed_displacements(const std::vector<std::int64_t>& bytes,
                                               std::size_t me, std::int64_t& total) {
  std::vector<std::int64_t> displs(bytes.size(), 0);
  total = 0;
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    displs[j] = total;
    if (j != me) total += bytes[j];
  }
  return displs;
}

// Where the bytes to send are: the caller's buffer when its type is contiguous (and the call is
// not in place), else a packed copy.
struct SendSide {
  std::vector<std::byte> packed;
  const std::byte* base = nullptr;
  std::vector<std::int64_t> displs;
};

int prepare_send(const Call& c, const Local& l, MPI_Comm comm, std::size_t me, SendSide& s) {
  const auto p = l.row.send.size();
  if (!l.in_place && l.send.contiguous) {
    s.base = static_cast<const std::byte*>(c.sendbuf);
    s.displs.resize(p);
    for (std::size_t j = 0; j < p; ++j) s.displs[j] = c.sdispls[j] * l.send.extent;
    return MPI_SUCCESS;
  }
  std::int64_t total = 0;
  s.displs = packed_displacements(l.row.send, me, total);
  s.packed.resize(static_cast<std::size_t>(total));
  s.base = s.packed.data();
  const void* buffer = l.in_place ? c.recvbuf : c.sendbuf;
  const MPI_Datatype type = l.in_place ? c.recvtype : c.sendtype;
  const auto counts = l.in_place ? c.recvcounts : c.sendcounts;
  const auto displs = l.in_place ? c.rdispls : c.sdispls;
  for (std::size_t j = 0; j < p; ++j) {
    if (j == me || counts[j] == 0) continue;
    const auto* block = static_cast<const std::byte*>(buffer) + displs[j] * l.send.extent;
    const int code = l.send.contiguous ? (std::memcpy(s.packed.data() + s.displs[j], block,
                                                      static_cast<std::size_t>(l.row.send[j])),
                                          MPI_SUCCESS)
                                       : pack(block, counts[j], type, l.send,
                                              s.packed.data() + s.displs[j], comm);
    if (code != MPI_SUCCESS) return code;
  }
  return MPI_SUCCESS;
}

// The rank's own block, copied locally (not in place): bytes moved as they are when both types
// are contiguous, else packed and unpacked.
int copy_own_block(const Call& c, const Local& l, MPI_Comm comm, std::size_t me) {
  const std::int64_t bytes = l.row.send[me];
  if (l.in_place || bytes == 0) return MPI_SUCCESS;
  const auto* from = static_cast<const std::byte*>(c.sendbuf) + c.sdispls[me] * l.send.extent;
  auto* to = static_cast<std::byte*>(c.recvbuf) + c.rdispls[me] * l.recv.extent;
  if (l.send.contiguous && l.recv.contiguous) {
    std::memmove(to, from, static_cast<std::size_t>(bytes));
    return MPI_SUCCESS;
  }
  std::vector<std::byte> staged(static_cast<std::size_t>(bytes));
  int code = pack(from, c.sendcounts[me], c.sendtype, l.send, staged.data(), comm);
  if (code == MPI_SUCCESS) {
    code = unpack(staged.data(), c.recvcounts[me], c.recvtype, l.recv, to, comm);
  }
  return code;
}

// The buffers of a planned call, ready before the call's agreement: the bytes to send (packed
// when needed), the rank's own block copied, where received bytes go (the caller's buffer, or a
// packed one to unpack). `code`: a local failure (of MPI_Pack), agreed on with the call.
struct Prepared {
  SendSide send;
  std::vector<std::byte> packed_recv;
  std::byte* recv_base = nullptr;
  std::vector<std::int64_t> rdispls;
  int code = MPI_SUCCESS;
};

void prepare(const Call& c, const Local& l, MPI_Comm comm, std::size_t me, Prepared& pre) {
  const auto p = l.row.recv.size();
  pre.code = prepare_send(c, l, comm, me, pre.send);
  if (pre.code == MPI_SUCCESS) pre.code = copy_own_block(c, l, comm, me);
  pre.recv_base = static_cast<std::byte*>(c.recvbuf);
  pre.rdispls.assign(p, 0);
  if (l.recv.contiguous) {
    for (std::size_t j = 0; j < p; ++j) pre.rdispls[j] = c.rdispls[j] * l.recv.extent;
  } else {
    std::int64_t total = 0;
    pre.rdispls = packed_displacements(l.row.recv, me, total);
    pre.packed_recv.resize(static_cast<std::size_t>(total));
    pre.recv_base = pre.packed_recv.data();
  }
}

// Runs the slot's plan: every rank calls it together. `pre`: the buffers prepared before the
// call's agreement (which carried their failures), or null: then they are prepared here and a
// failure is agreed on first, so that no rank waits for one that stopped. Returns MPI_SUCCESS or
// an error code that every rank returns (a failed MPI call inside the walk is agreed on by
// run_transfers).
int run_plan(CommState& st, const Entry& e, const Call& c, const Local& l, Prepared* pre) {
  const MPI_Comm comm = st.comm.get();
  const auto me = static_cast<std::size_t>(st.comm.rank());
  Prepared here;
  if (pre == nullptr) {
    pre = &here;
    prepare(c, l, comm, me, here);
    std::int64_t words[1] = {here.code};
    const Agreement a = agree(comm, CallLog("redist_alltoallv", st.comm.rank()), words);
    if (a.failed) return MPI_ERR_OTHER;
    if (words[0] != 0) return static_cast<int>(words[0]);
  }
  try {
    run_transfers(st.comm, e.transfers, pre->send.base, pre->send.displs, pre->recv_base,
                  pre->rdispls);
  } catch (const Error&) {
    return MPI_ERR_OTHER;
  }
  if (l.recv.contiguous) return MPI_SUCCESS;
  for (std::size_t j = 0; j < l.row.recv.size(); ++j) {
    if (j == me || c.recvcounts[j] == 0) continue;
    const int code =
        unpack(pre->packed_recv.data() + pre->rdispls[j], c.recvcounts[j], c.recvtype, l.recv,
               static_cast<std::byte*>(c.recvbuf) + c.rdispls[j] * l.recv.extent, comm);
    if (code != MPI_SUCCESS) return code;
  }
  return MPI_SUCCESS;
}

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
  const MPI_Comm comm = st.comm.get();
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

// Rank 0's transfers of every rank, each rank's to it: two counts per rank (MPI_Scatter), then
// the transfers as three words each (MPI_Scatterv).
void scatter_transfers(CommState& st, const std::vector<RankTransfers>& plans,
                       RankTransfers& mine) {
  const MPI_Comm comm = st.comm.get();
  const auto p = static_cast<std::size_t>(st.comm.size());
  const bool root = st.comm.rank() == 0;
  std::vector<std::int64_t> counts(root ? 2 * p : 0), words;
  std::vector<int> sizes(root ? p : 0), offsets(root ? p : 0);
  if (root) {
    for (std::size_t i = 0; i < p; ++i) {
      counts[2 * i] = static_cast<std::int64_t>(plans[i].sends.size());
      counts[2 * i + 1] = static_cast<std::int64_t>(plans[i].recvs.size());
      offsets[i] = static_cast<int>(words.size());
      for (const auto* list : {&plans[i].sends, &plans[i].recvs}) {
        for (const Transfer& t : *list) words.insert(words.end(), {t.peer, t.offset, t.bytes});
      }
      sizes[i] = static_cast<int>(words.size()) - offsets[i];
    }
  }
  std::int64_t own[2] = {0, 0};
  MPI_Scatter(counts.data(), 2, MPI_INT64_T, own, 2, MPI_INT64_T, 0, comm);
  std::vector<std::int64_t> received(static_cast<std::size_t>(3 * (own[0] + own[1])));
  MPI_Scatterv(words.data(), sizes.data(), offsets.data(), MPI_INT64_T, received.data(),
               static_cast<int>(received.size()), MPI_INT64_T, 0, comm);
  mine.sends.clear();
  mine.recvs.clear();
  for (std::int64_t k = 0; k < own[0] + own[1]; ++k) {
    const auto at = static_cast<std::size_t>(3 * k);
    const Transfer t{static_cast<int>(received[at]), received[at + 1], received[at + 2]};
    (k < own[0] ? mine.sends : mine.recvs).push_back(t);
  }
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
      smpi_execute(d.plan_seconds);  // simulated time passes as the real planning took
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
  e.decided = true;
  e.choice = static_cast<Choice>(choice);
  if (e.choice == Choice::redist) scatter_transfers(st, plans, e.transfers);
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

bool inside() { return inside_engine; }

int write_report(const char* path) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) return MPI_SUCCESS;
  return write_lines(path, owned_patterns(), size) ? MPI_SUCCESS : MPI_ERR_FILE;
}

}  // namespace redist::mpi::dropin
