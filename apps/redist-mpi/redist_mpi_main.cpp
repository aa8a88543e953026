// redist-mpi: runs one ring redistribution on real data under mpirun and verifies it.
//
//   mpirun -np P redist-mpi --instance ring.json --item-bytes B [--mode ring|linear]
//          [--segment-items K] [--window W] [--unidirectional] [--calibrate]
//   mpirun -np P redist-mpi --random SEED --max-items M ...   (a random instance with P ranks)
//   [--strategy redist|alltoallv|linear] [--format json|text]
//
// --strategy: `redist` (default) executes the Redistribution's plan; `alltoallv` one direct
// MPI_Alltoallv from the old to the new block distribution; `linear` LAU's Linear flows as LAU's
// single-send schedule (redist/mpi/baselines.hpp). The two baselines keep the global order from
// rank 0 (no rotation, as --mode linear) and are verified in exactly the same way.
//
// Every rank fills its block with items whose bytes encode their global index, the
// Redistribution moves them, every rank checks count, order and content of its new block and
// the staging bytes against their bound, and rank 0 prints one JSON line (apps/redist-mpi/
// run_report.hpp; `--format text`: a readable summary of the same report). Exit 0 when verified,
// 1 when not, 2 on bad input (then every rank prints the same `error: ...` line on stderr).
// Fault injection for tests (one at a time): --bad-target R (rank R asks for one item more),
// --negative R (rank R passes a negative old count), --bytes-on R:B (rank R passes item size B),
// --overlap-on R (with --out-of-place: rank R passes overlapping input and output buffers).
//
// Hostile options are refused before any item moves, with the same `error:` line on every rank:
// contradictory or out-of-range options, and runs beyond the size limits below (docs/mpi.md,
// "Limits and extreme inputs"), which are checked on the instance and on the plan's footprint.
#include <mpi.h>

// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; this program
// never calls exit() (it returns from main), so the macro is not needed here.
#ifdef exit
#undef exit
#endif

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/redist-mpi/run_report.hpp"
#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/located.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/mpi/baselines.hpp"
#include "redist/mpi/command_line.hpp"
#include "redist/mpi/redistribution.hpp"

namespace {

using redist::mpi::Error;
using redist::mpi::wrap;

// Size limits of one run (docs/mpi.md): beyond them a run needs more than a few GB or minutes.
constexpr std::int64_t kMaxRanks = 65'536;                        // mpirun -np
constexpr std::int64_t kMaxItemBytes = std::int64_t{64} << 20;    // --item-bytes, --bytes-on
constexpr std::int64_t kMaxRankBytes = std::int64_t{1} << 30;     // item buffers of one rank
constexpr std::int64_t kMaxStagingBytes = std::int64_t{1} << 30;  // staging of one rank
constexpr std::int64_t kMaxTotalItems = 100'000'000;              // items of the instance
constexpr std::int64_t kMaxRepeat = 100;                          // --repeat
constexpr std::int64_t kMaxMessages = 10'000'000;     // messages of one rank, all executions
constexpr std::int64_t kMaxRequests = 1 << 20;        // MPI requests one rank posts at once
constexpr double kMaxLoopWork = 1e9;                  // messages x posted requests of one rank
constexpr std::int64_t kCalibrationBytes = 16 << 20;  // one calibration ping at most

// The command line. Every rank parses the same argv, so every check below fails identically on
// every rank, before any collective that could deadlock.
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

Error usage(const std::string& message) { return Error("redist-mpi: " + message); }

// The driver's own MPI calls (the library checks its own). MPI_COMM_WORLD returns error codes
// (main): a failure here is this rank's alone, so main reports it and ends the job.
void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed (code {})", call, code));
}

// A decimal integer in [lo, hi], the whole text (no sign tricks, no trailing characters).
std::int64_t parse_int(const std::string& text, std::int64_t lo, std::int64_t hi,
                       const std::string& what) {
  std::int64_t v = 0;
  std::size_t used = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isdigit(static_cast<unsigned char>(text[0])) ||
      v < lo || v > hi) {
    throw usage(fmt::format("{} must be an integer in {}..{} (got '{}')", what, lo, hi,
                            redist::one_line(text, 40)));
  }
  return v;
}

// ---- The items: their bytes encode their global index -------------------------------------------

std::uint8_t item_byte(std::int64_t g, std::size_t j) {
  const std::uint64_t x = static_cast<std::uint64_t>(g) * 0x9E3779B97F4A7C15ull + j * 0x85EBCA6Bull;
  return static_cast<std::uint8_t>(x >> 56);
}

// Item g: its index in the first 8 bytes (little-endian, as many as fit), then a hash of g and j.
void fill_item(std::byte* p, std::int64_t g, std::size_t bytes) {
  for (std::size_t j = 0; j < bytes; ++j) {
    p[j] = static_cast<std::byte>(
        j < 8 ? static_cast<std::uint8_t>(static_cast<std::uint64_t>(g) >> (8 * j))
              : item_byte(g, j));
  }
}

bool check_item(const std::byte* p, std::int64_t g, std::size_t bytes) {
  for (std::size_t j = 0; j < bytes; ++j) {
    const std::uint8_t want =
        j < 8 ? static_cast<std::uint8_t>(static_cast<std::uint64_t>(g) >> (8 * j))
              : item_byte(g, j);
    if (static_cast<std::uint8_t>(p[j]) != want) return false;
  }
  return true;
}

redist::ring::Instance random_instance(int n, std::uint64_t seed, std::int64_t max_items,
                                       bool bidirectional) {
  std::mt19937_64 rng(seed);
  redist::ring::Instance in;
  in.bidirectional = bidirectional;
  std::uniform_int_distribution<std::int64_t> count(0, max_items);
  std::uniform_real_distribution<double> cost(0.5, 4.0);
  for (int i = 0; i < n; ++i) {
    in.loads.push_back(rng() % 4 == 0 ? 0 : count(rng));
    in.cost_next.push_back(cost(rng));
    if (bidirectional) in.cost_prev.push_back(cost(rng));
  }
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  // Targets: a random composition of the same total, with some zeros.
  std::vector<std::int64_t> cuts;
  for (int i = 0; i + 1 < n; ++i)
    cuts.push_back(total == 0 ? 0 : static_cast<std::int64_t>(rng() % (total + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::int64_t prev = 0;
  for (std::int64_t c : cuts) {
    in.targets.push_back(c - prev);
    prev = c;
  }
  in.targets.push_back(total - prev);
  return in;
}

// ---- Command line -------------------------------------------------------------------------------

// The instance, the item size and what runs.
void add_run_options(CLI::App& app, Args& a) {
  app.add_option("--instance", a.instance_file,
                 "ring instance JSON (docs/formats.md; - for stdin)");
  app.add_option("--random", a.seed, "use a random instance with this seed instead");
  app.add_option("--max-items", a.max_items, "random instances: at most this many items per rank");
  app.add_flag("--unidirectional", a.unidirectional, "random instances: unidirectional ring");
  app.add_option("--item-bytes", a.item_bytes, "bytes per item (1..64 MiB)");
  app.add_option("--strategy", a.strategy,
                 "redist: redist's planned ring schedule | alltoallv: one MPI_Alltoallv | linear: "
                 "LAU's Linear schedule, single-send")
      ->check(CLI::IsMember({"redist", "alltoallv", "linear"}));
  app.add_option("--repeat", a.repeat, "execute this many times (1..100) with one plan");
  app.add_flag("--calibrate", a.calibrate, "measure link costs instead of using the instance's");
  app.add_option("--format", a.format,
                 "json: one JSON line (docs/mpi.md) | text: a readable summary of the same run")
      ->check(CLI::IsMember({"json", "text"}));
  app.add_option("--max-staging-bytes", a.max_staging,
                 "cap automatic windows to this many staging bytes per rank (-1: no cap), and fail "
                 "verification if a rank allocates more");
}

void add_redist_options(CLI::App& app, Args& a) {
  const std::string group = "Options of --strategy redist";
  app.add_option("--mode", a.mode,
                 "ring: the ring planner's schedule | linear: LAU's Linear schedule")
      ->check(CLI::IsMember({"ring", "linear"}))
      ->group(group);
  app.add_option("--algorithm", a.algorithm, "ring planner (ring mode; `redist ring plan --help`)")
      ->group(group);
  app.add_option("--segment-items", a.segment_items, "at most this many items per message")
      ->group(group);
  app.add_option("--min-segments", a.min_segments,
                 "cut each group into at least this many messages")
      ->group(group);
  app.add_option("--window", a.window, "staging slots per incoming group (0: automatic, or >= 2)")
      ->group(group);
  app.add_option("--sends-in-flight", a.sends_in_flight,
                 "messages in transmission per stream (1..64)")
      ->group(group);
  app.add_flag("--out-of-place", a.out_of_place,
               "execute from the old block into a separate new block (not in place)")
      ->group(group);
  app.add_flag("--one-port", a.one_port,
               "a rank sending both ways sends one way at a time, in the model's order")
      ->group(group);
}

void add_fault_options(CLI::App& app, Args& a) {
  const std::string group = "Fault injection (tests; one at a time)";
  app.option_defaults()->always_capture_default(false);  // their defaults mean "no fault"
  app.add_option("--bad-target", a.bad_target, "this rank asks for one more item")->group(group);
  app.add_option("--negative", a.negative, "this rank passes a negative count")->group(group);
  app.add_option("--overlap-on", a.overlap_on,
                 "(--out-of-place) this rank passes overlapping buffers")
      ->group(group);
  app.add_option("--bytes-on", a.bytes_on, "R:B: rank R passes item size B")->group(group);
}

// Parses argv into `args`; returns false after printing --help (rank 0).
bool parse_args(int argc, char** argv, int rank, Args& a) {
  CLI::App app{
      "redist-mpi: execute and verify a ring redistribution under mpirun.\n"
      "Example (as root add --allow-run-as-root; more ranks than cores: --oversubscribe):\n"
      "  mpirun -np 5 redist-mpi --instance apps/redist-mpi/testdata/one-holds-all.json \\\n"
      "      --item-bytes 64\n"
      "The instance is a ring instance as `redist ring plan` reads it, one processor per rank:\n"
      "  {\"ring\": {\"loads\": [0, 0, 23, 0, 0], \"targets\": [5, 4, 5, 4, 5],\n"
      "            \"cost_next\": [1, 2, 1, 3, 1], \"cost_prev\": [1.5, 1, 2, 1, 1]}}"};
  app.option_defaults()->always_capture_default();
  add_run_options(app, a);
  add_redist_options(app, a);
  add_fault_options(app, a);
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw usage(redist::one_line(redist::cli::error_line(e)));
  }
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() > 0) a.given.push_back(o->get_name(false, true));
  }
  a.random = a.has("--random");
  return true;
}

// ---- Checks of the options, identical on every rank ---------------------------------------------

// Where the instance comes from, and how many ranks run it.
void check_source(const Args& a, int size) {
  if (size > kMaxRanks) {
    throw usage(fmt::format("mpirun started {} ranks, over the limit of {}", size, kMaxRanks));
  }
  if (a.random == a.has("--instance")) {
    throw usage("give exactly one of --instance FILE and --random SEED");
  }
  if (a.has("--instance") && a.instance_file.empty()) {
    throw usage("--instance needs a file name (- for standard input)");
  }
  for (const char* o : {"--max-items", "--unidirectional"}) {
    if (!a.random && a.has(o)) throw usage(fmt::format("{} only applies to --random", o));
  }
}

// Sizes out of range.
void check_ranges(const Args& a) {
  if (a.max_items < 0 || a.max_items > kMaxTotalItems) {
    throw usage(fmt::format("--max-items must be in 0..{} (got {})", kMaxTotalItems, a.max_items));
  }
  if (a.item_bytes < 1 || a.item_bytes > kMaxItemBytes) {
    throw usage(
        fmt::format("--item-bytes must be in 1..{} (64 MiB; got {})", kMaxItemBytes, a.item_bytes));
  }
  if (a.repeat < 1 || a.repeat > kMaxRepeat) {
    throw usage(fmt::format("--repeat must be >= 1 and at most {} (got {})", kMaxRepeat, a.repeat));
  }
  if (a.has("--max-staging-bytes") && (a.max_staging < 1 || a.max_staging > kMaxStagingBytes)) {
    throw usage(fmt::format("--max-staging-bytes must be in 1..{} (1 GiB; got {})",
                            kMaxStagingBytes, a.max_staging));
  }
}

// Options of one strategy or mode given with another, and messages too large for MPI.
void check_strategy_options(const Args& a) {
  if (a.strategy != "redist") {
    for (const char* o :
         {"--mode", "--algorithm", "--segment-items", "--min-segments", "--window",
          "--sends-in-flight", "--out-of-place", "--one-port", "--overlap-on", "--bytes-on"}) {
      if (a.has(o)) throw usage(fmt::format("{} only applies to --strategy redist", o));
    }
  }
  if (a.mode == "linear" && a.has("--algorithm")) {
    throw usage("--algorithm only applies to --mode ring (linear mode has one plan)");
  }
  // Range checks of the library options are the library's (collective, same message); the
  // message size is the driver's.
  if (a.segment_items > INT_MAX / a.item_bytes) {
    throw usage(
        fmt::format("--segment-items {} x --item-bytes {} makes messages over 2^31-1 "
                    "bytes; lower --segment-items",
                    a.segment_items, a.item_bytes));
  }
}

// The fault injection options: one at a time, on ranks that exist; parses --bytes-on.
void check_faults(Args& a, int size) {
  int faults = 0;
  for (const char* o : {"--bad-target", "--negative", "--overlap-on", "--bytes-on"}) {
    faults += a.has(o) ? 1 : 0;
  }
  if (faults > 1) throw usage("use one fault injection option at a time");
  for (const auto& [name, r] : {std::pair<const char*, int>{"--bad-target", a.bad_target},
                                {"--negative", a.negative},
                                {"--overlap-on", a.overlap_on}}) {
    if (a.has(name) && (r < 0 || r >= size)) {
      throw usage(fmt::format("{} {}: no such rank (ranks are 0..{})", name, r, size - 1));
    }
  }
  if (a.has("--overlap-on") && !a.out_of_place) {
    throw usage("--overlap-on needs --out-of-place");
  }
  if (a.has("--bytes-on")) {
    const std::size_t colon = a.bytes_on.find(':');
    if (colon == std::string::npos) {
      throw usage(
          fmt::format("--bytes-on must be R:B (got '{}')", redist::one_line(a.bytes_on, 40)));
    }
    a.bytes_rank =
        static_cast<int>(parse_int(a.bytes_on.substr(0, colon), 0, size - 1, "--bytes-on rank R"));
    a.bytes_size = parse_int(a.bytes_on.substr(colon + 1), 0, kMaxItemBytes, "--bytes-on size B");
  }
}

// Options that contradict each other, or are out of range. The instance is not known yet.
void check_args(Args& a, int size) {
  check_source(a, size);
  check_ranges(a);
  check_strategy_options(a);
  check_faults(a, size);
}

// ---- The instance, read by rank 0 and broadcast -------------------------------------------------

// Broadcasts a string from rank 0.
void bcast_string(std::string& s) {
  std::int64_t len = static_cast<std::int64_t>(s.size());
  check(MPI_Bcast(&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  s.resize(static_cast<std::size_t>(len));
  if (len > 0) {
    check(MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
}

template <class T>
void bcast_vector(std::vector<T>& v, MPI_Datatype type, std::size_t n) {
  v.resize(n);
  if (n > 0) {
    check(MPI_Bcast(v.data(), static_cast<int>(n), type, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
}

// Rank 0 reads and checks the document and broadcasts the instance (or its error): the other
// ranks never hold the text, and errors are identical everywhere.
redist::ring::Instance read_instance(const Args& a, int rank, int size) {
  redist::ring::Instance in;
  std::string error;
  if (rank == 0) {
    try {
      in = redist::io::read_ring_instance(
          redist::io::parse_document(redist::io::read_text(a.instance_file)));
      if (static_cast<std::int64_t>(in.size()) != size) {
        error = fmt::format(
            "the instance has {} processors but mpirun started {} ranks (use "
            "mpirun -np {})",
            in.size(), size, in.size());
      }
    } catch (const redist::InputError& e) {
      error = redist::io::located(e, "$.ring").what();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  bcast_string(error);
  if (!error.empty()) throw Error("redist::mpi: " + redist::one_line(error, 400));
  int bidi = in.bidirectional ? 1 : 0;
  check(MPI_Bcast(&bidi, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  in.bidirectional = bidi != 0;
  const std::size_t n = static_cast<std::size_t>(size);
  bcast_vector(in.loads, MPI_INT64_T, n);
  bcast_vector(in.targets, MPI_INT64_T, n);
  bcast_vector(in.cost_next, MPI_DOUBLE, n);
  bcast_vector(in.cost_prev, MPI_DOUBLE, in.bidirectional ? n : 0);
  return in;
}

// ---- Size limits of the instance and of the plan's footprint ------------------------------------

std::int64_t bytes_of(const Args& a, int r) {
  return r == a.bytes_rank ? a.bytes_size : a.item_bytes;
}

// Size limits on the instance: total items (planning and the model's schedule are item by item)
// and the item buffers of every rank. Identical on every rank.
void check_instance(const Args& a, const redist::ring::Instance& in) {
  std::int64_t total = 0;
  bool over = false;
  for (std::size_t r = 0; r < in.size(); ++r) {
    over = over || in.loads[r] > kMaxTotalItems || in.targets[r] > kMaxTotalItems ||
           __builtin_add_overflow(total, in.loads[r], &total) || total > kMaxTotalItems;
  }
  if (over) {
    throw usage(
        fmt::format("the instance has more than {} items (old or new counts), the limit "
                    "(planning follows items one by one); use fewer items",
                    kMaxTotalItems));
  }
  // Every count is now <= 1e8 + 1 and every item size <= 64 MiB: no product below overflows.
  for (std::size_t r = 0; r < in.size(); ++r) {
    const std::int64_t load = in.loads[r];
    const std::int64_t target = in.targets[r] + (a.bad_target == static_cast<int>(r) ? 1 : 0);
    const std::int64_t held = std::max(load, target), b = bytes_of(a, static_cast<int>(r));
    std::int64_t bytes = held * b + (a.out_of_place ? target * b : 0);
    if (a.repeat > 1) bytes += 8 * (held + (a.out_of_place ? target : 0));  // int64 vectors
    if (a.strategy == "alltoallv") bytes += target * b;                     // its receive buffer
    if (bytes > kMaxRankBytes) {
      throw usage(
          fmt::format("rank {} would hold {} bytes of items, over the limit of {} (1 GiB) "
                      "per rank; use fewer items (--max-items or the instance), a smaller "
                      "--item-bytes or more ranks",
                      r, bytes, kMaxRankBytes));
    }
  }
}

// Limits on the plan's footprint on every rank (staging, messages, posted requests, LAU's
// message buffers, LAU's makespan), reduced so that every rank refuses the same way.
struct Footprint {
  std::int64_t messages = 0, requests = 0;  // largest over the ranks, all executions
};

// This rank's footprint: staging bytes, messages (all executions), posted requests, and 1 when
// LAU's makespan overflows.
struct FootprintWords {
  std::int64_t words[4] = {0, 0, 0, 0};
};

FootprintWords footprint_of(const Args& a, const redist::mpi::Redistribution& r, int rank) {
  const std::int64_t b = bytes_of(a, rank);
  FootprintWords f;
  std::int64_t* mine = f.words;
  if (a.strategy == "redist") {
    mine[0] =
        static_cast<std::int64_t>(r.staging_bound(static_cast<std::size_t>(b), !a.out_of_place));
    mine[1] = r.messages() * a.repeat;
    mine[2] = r.request_slots(static_cast<std::size_t>(b), !a.out_of_place);
  } else if (a.strategy == "linear") {
    const redist::mpi::LocalPlan& lp = r.local();
    mine[0] = (lp.right.in + lp.right.out + lp.left.in + lp.left.out) * b;
    mine[3] =
        std::isfinite(redist::mpi::lau_single_send_makespan(r.instance(), r.plan().flows)) ? 0 : 1;
  }
  if (a.strategy == "alltoallv") mine[0] = r.local().target * b;  // its receive buffer
  return f;
}

Footprint check_footprint(const Args& a, const redist::mpi::Redistribution& r, int rank) {
  const FootprintWords mine = footprint_of(a, r, rank);
  std::int64_t all[4];
  check(MPI_Allreduce(mine.words, all, 4, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  if (a.max_staging > 0 && all[0] > a.max_staging) {
    throw usage(
        fmt::format("a rank needs {} bytes of staging and message buffers (automatic "
                    "windows already shrunk to the fewest slots that cannot deadlock), "
                    "over --max-staging-bytes {}; raise it or lower --segment-items",
                    all[0], a.max_staging));
  }
  if (all[0] > kMaxStagingBytes) {
    throw usage(
        fmt::format("a rank would allocate {} bytes of staging and message buffers, over "
                    "the limit of {} (1 GiB); lower --window, --segment-items or "
                    "--max-staging-bytes",
                    all[0], kMaxStagingBytes));
  }
  if (all[1] > kMaxMessages) {
    throw usage(
        fmt::format("a rank would send and receive {} messages (all --repeat executions), "
                    "over the limit of {}; raise --segment-items, lower --min-segments "
                    "or --repeat",
                    all[1], kMaxMessages));
  }
  if (all[2] > kMaxRequests) {
    throw usage(
        fmt::format("a rank would post {} MPI requests at once, over the limit of {}; "
                    "lower --window or raise --segment-items",
                    all[2], kMaxRequests));
  }
  // The event loop scans the posted requests once per completion (MPI_Waitsome and the
  // bookkeeping of every open group): its work grows as messages x posted requests.
  if (static_cast<double>(all[1]) * static_cast<double>(all[2]) > kMaxLoopWork) {
    throw usage(
        fmt::format("a rank would send and receive {} messages with up to {} MPI requests "
                    "posted, over the limit of {:.0e} for their product (the execution "
                    "scans its posted requests per message); raise --segment-items, "
                    "lower --window, --min-segments or --repeat",
                    all[1], all[2], kMaxLoopWork));
  }
  if (all[3] != 0) {
    throw usage(
        "LAU's single-send makespan overflows a double (costs times items); scale the costs");
  }
  return {all[1], all[2]};
}

// --overlap-on: input and output ranges of one allocation that overlap but differ (in != out,
// which would mean in place). Byte offsets of in and out and the allocation's size; impossible
// when the rank has no old or no new item, or one item of one byte on both sides.
struct OverlapLayout {
  std::size_t in = 0, out = 0, size = 0;
};

OverlapLayout overlap_layout(std::int64_t load, std::int64_t target, std::int64_t b, int rank) {
  if (load < 1 || target < 1 || (load == 1 && target == 1 && b == 1)) {
    throw usage(
        fmt::format("--overlap-on {}: that rank has {} old and {} new items of {} bytes, "
                    "so its buffers cannot overlap; choose a rank with items on both sides",
                    rank, load, target, b));
  }
  const std::size_t L = static_cast<std::size_t>(load), T = static_cast<std::size_t>(target),
                    B = static_cast<std::size_t>(b);
  OverlapLayout o;
  o.size = (L + T) * B;
  if (T >= 2) {
    o.in = (T - 1) * B;  // the last new item is the first old one
  } else if (L >= 2) {
    o.out = (L - 1) * B;  // the last old item is the (only) new one
  } else {
    o.out = 1;  // one item each: shifted by one byte
  }
  return o;
}

// ---- The library's options and the Redistribution, with its faults ------------------------------

// The library's options from the command line and the instance. The baselines do not rotate:
// they use the linear-mode plan (flows[n-1] = 0, final layout and the same collective input
// checks).
redist::mpi::Options library_options(const Args& a, const redist::ring::Instance& instance) {
  redist::mpi::Options options;
  const bool linear = a.strategy != "redist" || a.mode == "linear";
  options.mode = linear ? redist::mpi::Mode::linear : redist::mpi::Mode::ring;
  options.bidirectional = instance.bidirectional;
  options.segment_items = a.segment_items;
  options.min_segments = a.min_segments;
  options.window = a.window;
  options.sends_in_flight = a.sends_in_flight;
  options.algorithm = a.algorithm;
  options.one_port = a.one_port;
  if (a.max_staging > 0) options.max_staging_bytes = a.max_staging;
  return options;
}

// This rank's link costs: the instance's, or measured (--calibrate, collective).
redist::mpi::LinkCosts link_costs(const Args& a, const redist::ring::Instance& instance, int rank) {
  if (a.calibrate) {
    const std::int64_t items = std::clamp<std::int64_t>(kCalibrationBytes / a.item_bytes, 1, 256);
    return redist::mpi::calibrate_link_costs(MPI_COMM_WORLD, static_cast<std::size_t>(a.item_bytes),
                                             items);
  }
  return {instance.cost_next[rank], instance.bidirectional ? instance.cost_prev[rank] : 1.0};
}

// The Redistribution of the instance, with this rank's faults (--bad-target, --negative).
std::unique_ptr<redist::mpi::Redistribution> make_redistribution(
    const Args& a, const redist::ring::Instance& instance, int rank) {
  std::int64_t old_count = instance.loads[rank], new_count = instance.targets[rank];
  if (rank == a.bad_target) new_count += 1;
  if (rank == a.negative) old_count = -1;
  const redist::mpi::LinkCosts costs = link_costs(a, instance, rank);
  return std::make_unique<redist::mpi::Redistribution>(MPI_COMM_WORLD, old_count, new_count, costs,
                                                       library_options(a, instance));
}

// ---- Timed trials of the strategy ---------------------------------------------------------------

// What the first execution measured and found on this rank.
struct Measured {
  double seconds = 0, check_seconds = 0;
  std::int64_t bad = 0;     // items not where they belong (out of place: or `in` touched)
  bool memory_ok = true;    // staging within its bound and --max-staging-bytes
  std::size_t staging = 0;  // bytes of staging (baselines: their buffers)
};

// One rank's part of the run: its buffers of items, filled with their global indices, and the
// executions of the chosen strategy on them.
class Trial {
 public:
  Trial(const Args& a, redist::mpi::Redistribution& r, int rank, OverlapLayout overlap);
  Measured first();        // timed, then verified
  std::int64_t repeats();  // --repeat: typed vectors through the same plan; wrong items

 private:
  void move(void* buffer, std::size_t bytes);  // one execution of the strategy
  std::int64_t bad_items() const;

  const Args& a_;
  redist::mpi::Redistribution& r_;
  const redist::mpi::LocalPlan& lp_;
  std::size_t bytes_;                             // this rank's item size
  std::vector<std::byte> data_, result_, arena_;  // in; out of place: out; --overlap-on: both
  OverlapLayout overlap_;
  std::size_t baseline_bytes_ = 0;
};

Trial::Trial(const Args& a, redist::mpi::Redistribution& r, int rank, OverlapLayout overlap)
    : a_(a),
      r_(r),
      lp_(r.local()),
      bytes_(static_cast<std::size_t>(bytes_of(a, rank))),
      overlap_(overlap) {
  const std::size_t item = std::max<std::size_t>(bytes_, 1);
  data_.resize(static_cast<std::size_t>(std::max(lp_.load, lp_.target)) * item);
  for (std::int64_t k = 0; k < lp_.load; ++k) {
    fill_item(data_.data() + k * bytes_, wrap(lp_.start + k, std::max<std::int64_t>(lp_.total, 1)),
              bytes_);
  }
  // --out-of-place: the new block goes to `result_`, the old one stays in `data_`.
  if (a.out_of_place) result_.resize(static_cast<std::size_t>(lp_.target) * item);
  // --overlap-on: that rank passes input and output ranges of one allocation that overlap.
  if (rank == a.overlap_on) {
    arena_.resize(overlap_.size);
    std::memcpy(arena_.data() + overlap_.in, data_.data(), lp_.load * bytes_);
  }
}

void Trial::move(void* buffer, std::size_t bytes) {
  if (a_.strategy == "alltoallv") {
    baseline_bytes_ = redist::mpi::alltoallv_execute(MPI_COMM_WORLD, r_, buffer, bytes);
  } else if (a_.strategy == "linear") {
    baseline_bytes_ = redist::mpi::lau_linear_execute(MPI_COMM_WORLD, r_, buffer, bytes);
  } else if (a_.out_of_place && buffer == data_.data() && !arena_.empty()) {
    r_.execute(arena_.data() + overlap_.in, arena_.data() + overlap_.out, bytes);
  } else if (a_.out_of_place && buffer == data_.data()) {
    r_.execute(buffer, result_.data(), bytes);
  } else {
    r_.execute(buffer, bytes);
  }
}

// The fixed cost outside the model: execute's two agreements (its collective input check, an
// MPI_Allreduce of 5 integers, and its closing one of 1), timed alone the same way.
double time_fixed_collectives() {
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double t0 = MPI_Wtime();
  std::int64_t check_words[5] = {0, 0, 0, 0, 0}, agreement = 0;
  check(MPI_Allreduce(MPI_IN_PLACE, check_words, 5, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD),
        "MPI_Allreduce");
  check(MPI_Allreduce(MPI_IN_PLACE, &agreement, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD),
        "MPI_Allreduce");
  return MPI_Wtime() - t0;
}

Measured Trial::first() {
  Measured m;
  m.check_seconds = time_fixed_collectives();
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const double t0 = MPI_Wtime();
  move(data_.data(), bytes_);
  m.seconds = MPI_Wtime() - t0;
  m.bad = bad_items();
  // The baselines' buffers are not bounded (one message per link, or the whole new block):
  // reported, checked only against --max-staging-bytes.
  const bool redist = a_.strategy == "redist";
  m.staging = redist ? r_.last_staging_bytes() : baseline_bytes_;
  m.memory_ok = (!redist || m.staging <= r_.staging_bound(bytes_, !a_.out_of_place)) &&
                (a_.max_staging < 0 || m.staging <= static_cast<std::size_t>(a_.max_staging));
  return m;
}

std::int64_t Trial::bad_items() const {
  std::int64_t bad = 0;
  const std::byte* block = a_.out_of_place ? result_.data() : data_.data();
  for (std::int64_t k = 0; k < lp_.target; ++k) {
    if (!check_item(block + k * bytes_, wrap(lp_.final_start + k, lp_.total), bytes_)) ++bad;
  }
  // Out of place, the old block must be left untouched.
  for (std::int64_t k = 0; a_.out_of_place && k < lp_.load; ++k) {
    if (!check_item(data_.data() + k * bytes_,
                    wrap(lp_.start + k, std::max<std::int64_t>(lp_.total, 1)), bytes_))
      ++bad;
  }
  return bad;
}

// A vector, forth (typed API) and repeated: the same plan reused.
std::int64_t Trial::repeats() {
  std::int64_t bad = 0;
  for (std::int64_t r = 1; r < a_.repeat; ++r) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(lp_.load));
    for (std::int64_t k = 0; k < lp_.load; ++k) v[k] = wrap(lp_.start + k, lp_.total) + r;
    if (a_.strategy == "redist" && a_.out_of_place) {
      std::vector<std::int64_t> w;
      r_.execute(v, w);
      v = std::move(w);
    } else if (a_.strategy == "redist") {
      r_.execute(v);
    } else {
      v.resize(static_cast<std::size_t>(std::max(lp_.load, lp_.target)));
      move(v.data(), sizeof(std::int64_t));
      v.resize(static_cast<std::size_t>(lp_.target));
    }
    for (std::int64_t k = 0; k < lp_.target; ++k) {
      if (v[k] != wrap(lp_.final_start + k, lp_.total) + r) ++bad;
    }
  }
  return bad;
}

// ---- Verdict and report -------------------------------------------------------------------------

// The run over all ranks: maxima and sums of what every rank measured and found.
struct Summary {
  std::int64_t bad = 0, memory_bad = 0, staging = 0, repeat_bad = 0;
  double seconds = 0, check_seconds = 0;  // on rank 0
  bool verified() const { return bad == 0 && memory_bad == 0 && repeat_bad == 0; }
};

Summary summarize(const Measured& m, std::int64_t repeat_bad) {
  Summary s;
  std::int64_t mine[3] = {m.bad, m.memory_ok ? 0 : 1, static_cast<std::int64_t>(m.staging)};
  std::int64_t all[3];
  check(MPI_Allreduce(mine, all, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  s.bad = all[0];
  s.memory_bad = all[1];
  s.staging = all[2];
  check(MPI_Reduce(&m.seconds, &s.seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
        "MPI_Reduce");
  check(MPI_Reduce(&m.check_seconds, &s.check_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD),
        "MPI_Reduce");
  check(MPI_Allreduce(&repeat_bad, &s.repeat_bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  return s;
}

// Rank 0's report. Model makespan: redist's plan; LAU single-send of the Linear flows (all-port);
// none for Alltoallv (its messages are not ring-neighbour flows).
redist::mpi::RunReport make_report(const Args& a, const redist::mpi::Redistribution& r,
                                   const Footprint& footprint, const Summary& s,
                                   std::size_t item_bytes, int size) {
  const auto& plan = r.plan();
  redist::mpi::RunReport report;
  report.strategy = a.strategy;
  report.mode = a.strategy != "redist" ? "linear" : a.mode;
  report.algorithm = plan.algorithm;
  report.model_makespan = plan.makespan;
  if (a.strategy == "linear") {
    report.model_makespan = redist::mpi::lau_single_send_makespan(r.instance(), plan.flows);
    report.algorithm = "lau-linear-single-send";
  } else if (a.strategy == "alltoallv") {
    report.model_makespan.reset();
    report.algorithm = "alltoallv";
  }
  report.ranks = size;
  report.items = r.local().total;
  report.item_bytes = item_bytes;
  report.bidirectional = r.instance().bidirectional;
  report.flows = plan.flows;
  report.rotation = plan.rotation;
  report.segment_items = a.segment_items;
  report.measured_seconds = s.seconds;
  report.check_seconds = s.check_seconds;
  report.max_staging_bytes = s.staging;
  report.messages = footprint.messages;
  report.request_slots = footprint.requests;
  report.bad_items = s.bad;
  report.memory_ok = s.memory_bad == 0;
  report.repeat_bad_items = s.repeat_bad;
  report.repeats = a.repeat;
  return report;
}

// ---- The run, and main --------------------------------------------------------------------------

// The whole run on this rank; its exit code (0 verified, 1 not). Throws Error on bad input.
int run(int argc, char** argv, int rank, int size) {
  Args a;
  // Parsed and checked on every rank, then agreed: a rank that refuses alone would leave the
  // others waiting (an MPMD launch with different options).
  const auto parse = [&] {
    if (!parse_args(argc, argv, rank, a)) return false;
    check_args(a, size);
    return true;
  };
  if (!redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "redist-mpi", argc, argv, parse))
    return 0;
  const redist::ring::Instance instance =
      a.random ? random_instance(size, a.seed, a.max_items, !a.unidirectional)
               : read_instance(a, rank, size);
  check_instance(a, instance);
  // Refused (on every rank alike) before any collective of the library.
  const OverlapLayout overlap =
      a.has("--overlap-on")
          ? overlap_layout(instance.loads[a.overlap_on], instance.targets[a.overlap_on],
                           bytes_of(a, a.overlap_on), a.overlap_on)
          : OverlapLayout{};
  const std::unique_ptr<redist::mpi::Redistribution> r = make_redistribution(a, instance, rank);
  const Footprint footprint = check_footprint(a, *r, rank);
  Trial trial(a, *r, rank, overlap);
  const Measured first = trial.first();
  const Summary summary = summarize(first, trial.repeats());
  if (rank == 0) {
    const redist::mpi::RunReport report =
        make_report(a, *r, footprint, summary, static_cast<std::size_t>(bytes_of(a, rank)), size);
    std::cout << (a.format == "text" ? redist::mpi::run_report_text(report)
                                     : redist::mpi::run_report_json(report))
              << std::flush;
  }
  return summary.verified() ? 0 : 1;
}

// One line per write, so that the lines of different ranks never mix.
void print_error_line(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 3;
  int rank = 0, size = 1, exit_code = 0;
  try {
    // Failures come back as codes, so that they end as `error:` lines, not as the runtime's abort.
    check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    exit_code = run(argc, argv, rank, size);
  } catch (const redist::mpi::Error& e) {
    // Collective: every rank throws the same error at the same point, so all finish cleanly.
    print_error_line("error: " + redist::one_line(e.what(), 600) + "\n");
    exit_code = 2;
  } catch (const std::exception& e) {
    // Not collective (e.g. out of memory on one rank): the other ranks may wait in a collective,
    // so end the whole job rather than hang.
    print_error_line("error: redist-mpi: rank " + std::to_string(rank) + ": " +
                     redist::one_line(e.what(), 400) + "\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (MPI_Finalize() != MPI_SUCCESS && exit_code == 0) exit_code = 3;
  return exit_code;
}
