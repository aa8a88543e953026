// particles: an iterative MPI application balanced by Zoltan, whose rebalancing is decided by
// redist::balance::RebalanceDecider and whose migration is done by redist (docs/zoltan.md,
// "The particles example").
//
//   mpirun -np P particles [--particles N] [--particle-bytes B] [--seed S] [--iterations K]
//          [--drift steps|walk|transient] [--method RCB|HYPERGRAPH]
//          [--rcb-directions locked|free] [--policy NAME]
//          [--migrate redist|zoltan] [--bandwidth B1,B2,...] [--latency L] [--no-calibrate]
//          [--verbose]
//   mpirun -np P particles --record FILE [--cross-check] [same options]
//
// The particles of experiments/particles/particle_system.hpp (N of them, seed S): every rank
// advances all of them every iteration (cheap and deterministic), and owns a subset. A particle
// carries its id, its position and a payload of B bytes derived from its id; it stays on its
// rank until a rebalance moves it. The ranks' speeds follow balance::random_trace (drift, P
// processors, K iterations, seed S): iteration t's compute time on rank r is the work of its
// particles in iteration t over s_r(t), emulated (not slept).
//
// Zoltan (LB_METHOD RCB on the particles' x, y, or HYPERGRAPH on cells of a grid) partitions with
// object weights = each particle's work in the iteration just computed and part sizes
// proportional to the speeds the decider returns (REMAP 0: part r is rank r). With RCB, the
// directions of the cuts are those of the first partition (KEEP_CUTS and RCB_LOCK_DIRECTIONS;
// --rcb-directions free lets every partition choose them again). The initial
// partition (equal part sizes) is migrated from blocks of ids before iteration 1. After every
// iteration t < K: the decider observes every rank's load and time, redist::zoltan::Adapter
// proposes Zoltan's partition, the decider weighs its loads against the planned makespan of its
// migration (exchange::plan on the platform of --bandwidth and --latency); on a rebalance the
// particles move by redist's MPI executor (--migrate redist) or by Zoltan_Migrate (--migrate
// zoltan), through this program's pack and unpack functions. Every rank runs the decider on the
// same allgathered inputs; an agreement checks that every rank decided the same. The measured
// (wall-clock) migration times calibrate the costs the policy sees (RebalanceDecider::migrated),
// unless --no-calibrate: then the decisions follow the model alone and are reproducible.
// Checked after every migration: each particle present exactly once (an allreduce of per-id
// counts), where Zoltan's lists put it, with its id, position and payload intact (locally, and a
// global checksum), and each rank holding the proposal's objects_after.
// Rank 0 prints a summary; exit 0 when every check held, 1 if one failed, 2 on bad options (one
// `error:` line from rank 0).
//
// --record FILE: no migration. The initial partition and the partition proposed after each
// iteration t = 1..K-1 (weights of iteration t, part sizes proportional to the trace's speeds of
// iteration t) are written as a PartitionRecording (experiments/particles/recording.hpp) by rank
// 0. --cross-check also asks Zoltan for every recorded partition from a second distribution of
// the particles (the previous proposal's owners; round robin at first) and counts the particles
// whose owner differs.
// Limits: 2 <= P <= 1024, N <= 1,000,000, B <= 65536, N (B + 24) < 2^31, K <= 10,000.
// Cost per iteration: O(N) to advance and weigh, one Zoltan_LB_Partition, the adapter's census;
// per migration O(N B) for the checks.
//
// The program's files: this one (the command line and main) and those particles.hpp lists.
#include <mpi.h>
#include <zoltan.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "examples/particles.hpp"
#include "redist/balance/policy.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"
#include "redist/mpi/command_line.hpp"

namespace particles_example {
namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& where) {
  throw redist::mpi::Error(fmt::format("particles: {} (at {})", redist::one_line(what), where));
}

// Whether `path` can be written: opened for appending, so that nothing already in it is lost; a
// file the probe made is removed again.
bool writable(const std::string& path) {
  std::error_code error;
  const bool existed = std::filesystem::exists(path, error);
  if (std::ofstream probe(path, std::ios::app); !probe) return false;
  if (!existed) std::filesystem::remove(path, error);
  return true;
}

// ---- Command line -------------------------------------------------------------------------------

std::vector<double> parse_bandwidths(const std::string& text, int ranks) {
  std::vector<double> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::string item = text.substr(from, comma == std::string::npos ? comma : comma - from);
    const redist::Parsed<double> value = redist::parse_real(item);
    const double* v = std::get_if<double>(&value);
    if (v == nullptr || *v <= 0) {
      refuse(fmt::format("'{}' must be a number > 0", redist::one_line(item, 40)), "--bandwidth");
    }
    out.push_back(*v);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (out.size() == 1) out.assign(std::size_t(ranks), out[0]);
  if (out.size() != std::size_t(ranks)) {
    refuse(fmt::format("{} bandwidths for {} ranks (give one, or one per rank)", out.size(), ranks),
           "--bandwidth");
  }
  return out;
}

void declare(CLI::App& app, Args& a) {
  app.add_option("--particles", a.particles, "particles N (default 5000)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--particle-bytes", a.particle_bytes, "payload bytes per particle (default 256)")
      ->check(CLI::Range(0, 65536));
  app.add_option("--seed", a.seed, "seed of the particles and of the speeds (default 1)");
  app.add_option("--iterations", a.iterations, "iterations K (default 100)")
      ->check(CLI::Range(1, 10000));
  app.add_option("--drift", a.drift, "how speeds drift: steps, walk (default), transient")
      ->check(CLI::IsMember({"steps", "walk", "transient"}));
  app.add_option("--method", a.method, "Zoltan's LB_METHOD: RCB (default) or HYPERGRAPH")
      ->check(CLI::IsMember({"RCB", "HYPERGRAPH"}));
  app.add_option("--rcb-directions", a.rcb_directions,
                 "RCB: locked (default; later partitions cut in the first one's directions) or "
                 "free (each partition chooses its own)")
      ->check(CLI::IsMember({"locked", "free"}));
  app.add_option("--policy", a.policy, "rebalancing policy (default cost-benefit)");
  app.add_option("--migrate", a.migrate, "redist (default) or zoltan (Zoltan_Migrate)")
      ->check(CLI::IsMember({"redist", "zoltan"}));
  app.add_option("--bandwidth", a.bandwidth,
                 "bytes/s of each rank, one value or one per rank, comma-separated (default 1e9)");
  app.add_option("--latency", a.latency, "seconds per message piece (default 5e-6)")
      ->check(redist::cli::non_negative());
  app.add_option("--record", a.record, "write the proposals of a run without migration to FILE");
  app.add_flag("--cross-check", a.cross_check,
               "with --record: ask Zoltan again from another distribution and compare");
  app.add_flag("--no-calibrate", a.no_calibrate,
               "keep the measured migration times from the decider (decisions on the model alone)");
  app.add_flag("--verbose", a.verbose, "one line per rebalance (with wall-clock times)");
}

// Parses argv; false after --help (printed by rank 0). Bad options: redist::mpi::Error naming the
// option.
bool parse(int argc, char** argv, int rank, int ranks, Args& a) {
  CLI::App app{"particles: Zoltan partitions, redist decides and migrates"};
  declare(app, a);
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    const redist::cli::ErrorParts error = redist::cli::error_parts(e);
    refuse(error.what, error.where);
  }
  if (ranks < 2 || ranks > 1024)
    refuse(fmt::format("{} ranks: run 2 to 1024", ranks), "mpirun -np");
  if (a.particles * (a.particle_bytes + 24) >= (std::int64_t{1} << 31)) {
    refuse("particles x (bytes + 24) must stay below 2^31", "--particle-bytes");
  }
  if (a.cross_check && a.record.empty()) refuse("needs --record", "--cross-check");
  // Rank 0 writes the recording: a path it cannot write is refused before the run, on every rank
  // (the agreement on the command line carries rank 0's refusal).
  if (!a.record.empty() && rank == 0 && !writable(a.record)) {
    refuse(fmt::format("'{}' cannot be written", redist::one_line(a.record, 200)), "--record");
  }
  if (app.count("--rcb-directions") > 0 && a.method != "RCB")
    refuse("applies to --method RCB only", "--rcb-directions");
  a.bandwidths = parse_bandwidths(a.bandwidth, ranks);
  try {
    (void)rb::make_policy(a.policy, a.iterations);
  } catch (const redist::InputError& e) {
    refuse(e.message(), "--policy");
  }
  return true;
}

}  // namespace
}  // namespace particles_example

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  float version = 0.0f;
  Zoltan_Initialize(argc, argv, &version);
  int code = 0;
  try {
    particles_example::Args args;
    // Parsed on every rank, then agreed, so that no rank refuses alone.
    if (redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "particles", argc, argv, [&] {
          return particles_example::parse(argc, argv, rank, ranks, args);
        })) {
      code = args.record.empty() ? particles_example::run_application(args, rank, ranks)
                                 : particles_example::record_run(args, rank, ranks);
    }
  } catch (const redist::mpi::Error& e) {
    // Every rank refuses at the same point; rank 0 says why.
    if (rank == 0) std::cerr << "error: " << redist::one_line(e.what(), 600) << "\n";
    code = 2;
  } catch (const std::exception& e) {
    // The decider and the trace see the same inputs on every rank, so they refuse everywhere.
    if (rank == 0) std::cerr << "error: particles: " << redist::one_line(e.what(), 600) << "\n";
    code = 2;
  }
  MPI_Finalize();
  return code;
}
