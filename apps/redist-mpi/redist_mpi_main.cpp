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
// contradictory or out-of-range options (redist_mpi_options.hpp), and runs beyond the size limits
// (docs/mpi.md, "Limits and extreme inputs"), which are checked on the instance and on the plan's
// footprint (redist_mpi_limits.hpp).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "apps/redist-mpi/redist_mpi_limits.hpp"
#include "apps/redist-mpi/redist_mpi_options.hpp"
#include "apps/redist-mpi/run_report.hpp"
#include "redist/common/error.hpp"
#include "redist/mpi/baselines.hpp"
#include "redist/mpi/command_line.hpp"
#include "redist/mpi/redistribution.hpp"

namespace {

using redist::mpi::wrap;
using namespace redist::mpi::driver;  // the options and limits (redist_mpi_options.hpp,
                                      // _limits.hpp)

constexpr std::int64_t kCalibrationBytes = 16 << 20;  // one calibration ping at most

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
