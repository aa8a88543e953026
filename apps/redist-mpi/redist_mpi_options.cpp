// The command line of redist-mpi: parsing and checks (redist_mpi_options.hpp).
#include "apps/redist-mpi/redist_mpi_options.hpp"

// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; nothing here
// calls exit().
#ifdef exit
#undef exit
#endif

#include <cctype>
#include <climits>
#include <exception>
#include <iostream>
#include <utility>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"

namespace redist::mpi::driver {

Error usage(const std::string& message) { return Error("redist-mpi: " + message); }

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

void check_args(Args& a, int size) {
  check_source(a, size);
  check_ranges(a);
  check_strategy_options(a);
  check_faults(a, size);
}

}  // namespace redist::mpi::driver
