// iterative-columns: an iterative MPI application that rebalances itself with
// redist::mpi::Rebalancer (ours; the setting is RRV04 §8's: the columns of a matrix distributed
// in blocks over a heterogeneous ring, processors whose speeds drift).
//
//   mpirun -np P iterative-columns [--iterations K] [--columns N] [--rows M] [--sweeps S]
//          [--policy NAME] [--slow RANK:ITER:FACTOR]... [--costs C | --calibrate] [--raw-speeds]
//          [--format json|text]
//   smpirun ... iterative-columns-smpi --trace trace.json --flops-per-column F [--one-port] ...
//
// An M x N matrix: every column is an item of M + 2 doubles, its global index, the number of
// updates it received, and M values. Rank i holds a contiguous block of columns, equal blocks at
// the start (under SMPI with --trace: the trace's initial loads, balanced for its first speeds).
// Each iteration updates every local column (S relaxation sweeps v_j <- (v_{j-1} + 2 v_j +
// v_{j+1}) / 4 over its interior), reports the work (its column count) and time to the
// Rebalancer, and lets it rebalance. --slow RANK:ITER:FACTOR makes RANK do FACTOR times the work
// per column from iteration ITER on (extra sweeps on a scratch copy), so the drift is real.
// --raw-speeds feeds the policy the speeds measured in the last iteration instead of the
// Rebalancer's estimates (balance::RebalanceSettings::estimate_speeds).
// At the end every rank checks each of its columns: index = the expected global index (the
// Rebalancer's global_start, the sequence may be rotated), updates = K, values = the column
// recomputed from scratch (bit for bit). Rank 0 prints one line per rebalance and a JSON
// summary, or with --format text a readable summary of the same run (text/summary.hpp's shape);
// exit 0 when verified, 1 if not, 2 on bad input (every rank prints the same `error:` line).
//
// SMPI build (REDIST_SMPI): the computation is charged with smpi_execute_flops(columns x F x
// slowdown) (run with smpi/simulate-computation:no, so the real arithmetic costs no simulated
// time), host i is switched to the power state of s_i(t) at the start of iteration t
// (apps/redist-mpi/smpi_pstates.hpp; the platform comes from redist-smpi-platform --balance), and
// the link costs are the trace's, so a run follows the model of `redist balance simulate`.
#include <mpi.h>

#ifdef exit  // SMPI's exit macro clashes with CLI::App::exit; this program returns from main
#undef exit
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/located.hpp"
#include "redist/mpi/command_line.hpp"
#include "redist/mpi/rebalancer.hpp"
#include "redist/text/summary.hpp"

#ifdef REDIST_SMPI
#include <simgrid/host.h>

#include "apps/redist-mpi/smpi_pstates.hpp"
#include "redist/io/balance_json.hpp"
#endif

namespace {

constexpr std::size_t kHeader = 2;  // index, updates
volatile double g_sink = 0.0;

struct Slowdown {
  int rank = 0;
  std::int64_t from = 1;  // iteration, counted from 1
  double factor = 1.0;
};

struct Args {
  std::int64_t iterations = 20;
  std::int64_t columns = 256;
  std::int64_t rows = 512;
  std::int64_t sweeps = 20;
  std::string policy = "cost-benefit";
  std::string format = "json";
  std::vector<std::string> slow;
  std::optional<double> costs;
  bool calibrate = false;
  bool one_port = false;
  bool raw_speeds = false;
  std::int64_t segment_items = 1024;
  std::string trace;
  double flops_per_column = 1e6;
  std::vector<Slowdown> slowdowns;
};

[[noreturn]] void usage(const std::string& message, const std::string& where) {
  throw redist::mpi::Error(
      fmt::format("iterative-columns: {} (at {})", redist::one_line(message), where));
}

std::vector<Slowdown> parse_slow(const std::vector<std::string>& specs) {
  std::vector<Slowdown> out;
  for (const std::string& spec : specs) {
    Slowdown s;
    char tail = 0;
    if (std::sscanf(spec.c_str(), "%d:%ld:%lf%c", &s.rank, &s.from, &s.factor, &tail) != 3 ||
        s.rank < 0 || s.from < 1 || !std::isfinite(s.factor) || s.factor < 1 || s.factor > 1000)
      usage(fmt::format("--slow wants RANK:ITER:FACTOR with RANK >= 0, ITER >= 1 and FACTOR in "
                        "1..1000, got '{}'",
                        spec),
            "--slow");
    out.push_back(s);
  }
  return out;
}

double slowdown(const Args& a, int rank, std::int64_t iteration) {
  double f = 1.0;
  for (const Slowdown& s : a.slowdowns) {
    if (s.rank == rank && iteration >= s.from) f = s.factor;
  }
  return f;
}

void init_column(double* c, std::int64_t index, std::int64_t rows) {
  c[0] = static_cast<double>(index);
  c[1] = 0.0;
  for (std::int64_t j = 0; j < rows; ++j)
    c[kHeader + j] = std::sin(0.001 * static_cast<double>(index + 1) * static_cast<double>(j + 1));
}

void relax(double* v, std::int64_t rows, std::int64_t sweeps) {
  for (std::int64_t s = 0; s < sweeps; ++s) {
    double left = v[0];
    for (std::int64_t j = 1; j + 1 < rows; ++j) {
      const double mid = v[j];
      v[j] = 0.25 * (left + 2.0 * mid + v[j + 1]);
      left = mid;
    }
  }
}

// One iteration on one column: S sweeps, plus extra sweeps on a scratch copy when slowed down.
double update_column(double* c, const Args& a, double factor, std::vector<double>& scratch) {
  relax(c + kHeader, a.rows, a.sweeps);
  c[1] += 1.0;
  const auto extra = static_cast<std::int64_t>(std::llround((factor - 1.0) * a.sweeps));
  if (extra == 0) return 0.0;
  scratch.assign(c + kHeader, c + kHeader + a.rows);
  relax(scratch.data(), a.rows, extra);
  return scratch[static_cast<std::size_t>(a.rows / 2)];
}

std::int64_t bad_columns(const std::vector<double>& data, const Args& a,
                         const redist::mpi::Rebalancer& rb) {
  const std::size_t stride = static_cast<std::size_t>(a.rows) + kHeader;
  std::vector<double> want(stride);
  std::int64_t bad = static_cast<std::int64_t>(data.size()) != rb.count() * std::int64_t(stride);
  for (std::int64_t k = 0; k < rb.count() && !bad; ++k) {
    const std::int64_t index = (rb.global_start() + k) % rb.items();
    init_column(want.data(), index, a.rows);
    for (std::int64_t t = 0; t < a.iterations; ++t) relax(want.data() + kHeader, a.rows, a.sweeps);
    want[1] = static_cast<double>(a.iterations);
    bad += std::memcmp(want.data(), data.data() + k * stride, stride * sizeof(double)) != 0;
  }
  return bad;
}

Args parse(int argc, char** argv) {
  Args a;
  CLI::App app{"iterative-columns: an MPI application rebalanced by redist::mpi::Rebalancer"};
  app.add_option("--iterations", a.iterations, "iterations K")->check(CLI::Range(1, 1000000));
  app.add_option("--columns", a.columns, "columns N (the items)")->check(CLI::Range(1, 10000000));
  app.add_option("--rows", a.rows, "rows M (a column is M + 2 doubles)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--sweeps", a.sweeps, "relaxation sweeps per column and iteration")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--policy", a.policy, "rebalancing policy (redist balance simulate names)");
  app.add_option("--slow", a.slow,
                 "RANK:ITER:FACTOR: RANK does FACTOR times the work per "
                 "column from iteration ITER on (repeatable)");
  auto* costs = app.add_option("--costs", a.costs, "link cost, seconds per column, every link")
                    ->check(redist::cli::positive());
  auto* calibrate = app.add_flag("--calibrate", a.calibrate, "measure the link costs (default)");
  costs->excludes(calibrate);
  app.add_flag("--one-port", a.one_port, "send one message at a time (one-port networks)");
  app.add_flag("--raw-speeds", a.raw_speeds,
               "decide on the speeds measured in the last iteration (no speed estimates)");
  app.add_option("--segment-items", a.segment_items, "columns per message at most")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--format", a.format,
                 "json: a line per rebalance and a JSON summary | text: a readable summary")
      ->check(CLI::IsMember({"json", "text"}));
#ifdef REDIST_SMPI
  auto* trace =
      app.add_option("--trace", a.trace, "balance trace: ring, speeds, items")->required();
  app.add_option("--flops-per-column", a.flops_per_column, "flops charged per column update")
      ->check(redist::cli::positive());
  costs->excludes(trace);
  calibrate->excludes(trace);
#endif
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {
    std::cout << app.help();
    a.iterations = 0;
    return a;
  } catch (const CLI::ParseError& e) {
    const redist::cli::ErrorParts error = redist::cli::error_parts(e);
    usage(error.what, error.where);
  }
  a.slowdowns = parse_slow(a.slow);
  if (!a.costs && a.trace.empty()) a.calibrate = true;
  return a;
}

// The columns this rank holds at the start: [start, start + count).
struct Block {
  std::int64_t start = 0, count = 0;
};

[[maybe_unused]] Block equal_block(std::int64_t n, int rank, int size) {
  Block b;
  for (int r = 0; r <= rank; ++r) {
    b.start += b.count;
    b.count = n / size + (r < n % size ? 1 : 0);
  }
  return b;
}

struct Run {
  Block block;
  redist::mpi::LinkCosts costs;
  std::vector<unsigned long> pstates;  // SMPI: this host's power state per iteration
};

Run setup(Args& a, int rank, int size) {
  Run run;
#ifdef REDIST_SMPI
  const redist::balance::Trace trace =
      redist::io::read_balance_trace(redist::io::read_document(a.trace));
  if (trace.ring.size() != static_cast<std::size_t>(size))
    usage(fmt::format("the trace has {} processors, smpirun started {} ranks", trace.ring.size(),
                      size),
          "--trace");
  a.iterations = trace.iterations();
  a.columns = trace.items();
  const auto r = static_cast<std::size_t>(rank);
  for (std::size_t i = 0; i < r; ++i) run.block.start += trace.initial_loads[i];
  run.block.count = trace.initial_loads[r];
  run.costs = {trace.ring.cost_next[r],
               trace.ring.bidirectional ? trace.ring.cost_prev[r] : trace.ring.cost_next[r]};
  run.pstates = redist::mpi::host_pstates(trace, r);
#else
  run.block = equal_block(a.columns, rank, size);
  const std::size_t item_bytes = (static_cast<std::size_t>(a.rows) + kHeader) * sizeof(double);
  if (a.costs) run.costs = {*a.costs, *a.costs};
  if (a.calibrate) run.costs = redist::mpi::calibrate_link_costs(MPI_COMM_WORLD, item_bytes, 1, 20);
#endif
  return run;
}

// What the run found, as rank 0 reports it.
struct Outcome {
  int ranks = 0;
  std::vector<redist::mpi::RebalanceReport> rebalances;  // those that rebalanced
  double total = 0, moving = 0;                          // seconds, max over the ranks
  std::vector<std::int64_t> counts;                      // every rank's columns at the end
  std::int64_t first_column = 0, bad = 0;
};

// Fixed schemes (every:E, at:...) predict nothing: say so rather than "saving 0 s".
std::string saving_text(const redist::mpi::RebalanceReport& r) {
  return r.predicted_saving > 0 ? fmt::format("predicted saving {:.6g} s", r.predicted_saving)
                                : std::string("no saving predicted by the policy");
}

// One line per rebalance, then the JSON summary (the output scripts read).
std::string outcome_json(const Args& a, const Outcome& o) {
  std::string out;
  for (const redist::mpi::RebalanceReport& r : o.rebalances) {
    out += fmt::format(
        "after iteration {}: {} (iteration {:.6g} s, {}, plan makespan {:.6g} s, measured "
        "{:.6g} s)\n",
        r.after_iteration, r.reason, r.iteration_time, saving_text(r), r.plan_makespan,
        r.redistribution_seconds);
  }
  return out + fmt::format(
                   "{{\"ranks\": {}, \"columns\": {}, \"rows\": {}, \"iterations\": {}, "
                   "\"policy\": \"{}\", \"speeds\": \"{}\", \"rebalances\": {}, "
                   "\"total_seconds\": {:.9g}, \"redistribution_seconds\": {:.9g}, "
                   "\"counts\": [{}], \"first_column\": {}, \"bad_columns\": {}, "
                   "\"verified\": {}}}\n",
                   o.ranks, a.columns, a.rows, a.iterations, redist::one_line(a.policy, 80),
                   a.raw_speeds ? "measured" : "estimated", o.rebalances.size(), o.total, o.moving,
                   fmt::join(o.counts, ", "), o.first_column, o.bad, o.bad == 0);
}

// The same run, readable: the setting, the times, the verdict, then the rebalances.
std::string outcome_text(const Args& a, const Outcome& o) {
  namespace text = redist::text;
  text::Summary out;
  out.line(fmt::format("iterative-columns: {} ranks, {} columns of {} rows, {} iterations, {}",
                       o.ranks, a.columns, a.rows, a.iterations,
                       o.bad == 0 ? "verified" : "NOT verified"));
  out.blank();
  out.field("policy", fmt::format("{} (on the {} speeds)", redist::one_line(a.policy, 80),
                                  a.raw_speeds ? "measured" : "estimated"));
  out.field("total", fmt::format("{:.6g} s (redistributions {:.6g} s)", o.total, o.moving));
  out.field("rebalances", fmt::format("{}", o.rebalances.size()));
  out.field("counts", text::numbers(o.counts));
  out.field("verified", o.bad == 0 ? std::string("yes (every column recomputed bit for bit)")
                                   : fmt::format("NO: {} columns differ", o.bad));
  out.blank();
  out.line("rebalances (after iteration k: the policy's reason; times in s):");
  const std::size_t shown = std::min(o.rebalances.size(), text::kMaxRows);
  for (std::size_t k = 0; k < shown; ++k) {
    const redist::mpi::RebalanceReport& r = o.rebalances[k];
    out.line(fmt::format("  after {:>4}  {}", r.after_iteration, r.reason));
    out.line(
        fmt::format("              iteration {:.6g}, {}, plan makespan {:.6g}, measured {:.6g}",
                    r.iteration_time, saving_text(r), r.plan_makespan, r.redistribution_seconds));
  }
  if (o.rebalances.empty()) out.line("  none: the policy never rebalanced");
  out.rows_left_out(shown, o.rebalances.size());
  return out.str();
}

// The iterations, each followed by the Rebalancer's decision; rank 0's report of them.
Outcome iterate(const Args& a, int rank, const Run& run, std::vector<double>& data) {
  const std::size_t stride = static_cast<std::size_t>(a.rows) + kHeader;
  redist::mpi::Options options;
  options.one_port = a.one_port;
  options.segment_items = a.segment_items;
  redist::balance::RebalanceSettings settings;
  settings.estimate_speeds = !a.raw_speeds;
  redist::mpi::Rebalancer rb(MPI_COMM_WORLD, run.block.count, run.costs, a.policy, a.iterations,
                             options, settings);
  std::vector<double> scratch;
  double sink = 0.0;
  Outcome o;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (std::int64_t t = 0; t < a.iterations; ++t) {
    const double factor = slowdown(a, rank, t + 1);
#ifdef REDIST_SMPI
    sg_host_set_pstate(sg_host_self(), run.pstates[static_cast<std::size_t>(t)]);
#endif
    rb.start_iteration();
#ifdef REDIST_SMPI
    smpi_execute_flops(static_cast<double>(rb.count()) * a.flops_per_column * factor);
#endif
    for (std::int64_t k = 0; k < rb.count(); ++k)
      sink += update_column(data.data() + k * stride, a, factor, scratch);
    rb.end_iteration(static_cast<double>(rb.count()));
    // An item is a column: `stride` consecutive doubles.
    redist::mpi::RebalanceReport r = rb.maybe_rebalance(data, stride);
    if (!r.rebalanced) continue;
    o.moving += r.redistribution_seconds;
    o.rebalances.push_back(std::move(r));
  }
  o.total = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &o.total, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  o.bad = bad_columns(data, a, rb);
  MPI_Allreduce(MPI_IN_PLACE, &o.bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  o.counts = rb.counts();
  o.first_column = rb.global_start();
  g_sink = sink;  // keeps the slowdown's extra sweeps
  return o;
}

int run_application(Args& a, int rank, int size) {
  for (const Slowdown& s : a.slowdowns) {
    if (s.rank >= size)
      usage(fmt::format("--slow names rank {}, there are {} ranks", s.rank, size), "--slow");
  }
  const Run run = setup(a, rank, size);
  const std::size_t stride = static_cast<std::size_t>(a.rows) + kHeader;
  std::vector<double> data(static_cast<std::size_t>(run.block.count) * stride);
  for (std::int64_t k = 0; k < run.block.count; ++k)
    init_column(data.data() + k * stride, run.block.start + k, a.rows);
  Outcome o = iterate(a, rank, run, data);
  o.ranks = size;
  if (rank == 0) {
    std::cout << (a.format == "text" ? outcome_text(a, o) : outcome_json(a, o)) << std::flush;
  }
  return o.bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  try {
    // Parsed on every rank, then agreed: a rank that refuses alone would leave the others waiting.
    Args a;
    const auto parsed = [&] {
      a = parse(argc, argv);
      return a.iterations > 0;
    };
    if (redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "iterative-columns", argc, argv, parsed))
      code = run_application(a, rank, size);
  } catch (const redist::mpi::Error& e) {
    // Collective: every rank throws it at the same point (argv and the decisions are the same).
    const std::string line = "error: " + redist::one_line(e.what(), 600) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    code = 2;
  } catch (const redist::InputError& e) {
    // Reading the trace: every rank reads the same file.
    const std::string line =
        "error: " + redist::one_line(redist::io::located(e, "$.balance").what(), 600) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "error: iterative-columns: rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return code;
}
