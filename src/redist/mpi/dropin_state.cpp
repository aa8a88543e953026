// The drop-in's state: settings, the report, and each communicator's state with its platform.
#include "redist/mpi/dropin_state.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "redist/io/platform_json.hpp"
#include "redist/mpi/calibrate_platform.hpp"

namespace redist::mpi::dropin {

namespace {
thread_local bool inside_engine = false;
}  // namespace

Inside::Inside() { inside_engine = true; }
Inside::~Inside() { inside_engine = false; }
bool inside() { return inside_engine; }

// ---------------------------------------------------------------------------------------------
// Settings and the process's report

// One line on standard error, once per process and text.
void warn(const std::string& text) {
  static std::vector<std::string> said;
  if (std::find(said.begin(), said.end(), text) != said.end()) return;
  said.push_back(text);
  std::fprintf(stderr, "redist: error: %s\n", text.c_str());
}

namespace {

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

}  // namespace

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

// ---------------------------------------------------------------------------------------------
// The state of a communicator

namespace {

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

}  // namespace

// The platform file, read once per process: the platform, or why it cannot be used.
namespace {

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

}  // namespace

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

}  // namespace redist::mpi::dropin
