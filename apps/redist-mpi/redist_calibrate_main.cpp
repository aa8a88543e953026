// redist-calibrate: measures the platform of the ranks it runs on and writes the platform file
// (docs/formats.md, "Platform file") that the MPI_Alltoallv drop-in reads (REDIST_PLATFORM).
//
//   mpirun -np P redist-calibrate [--bytes N] [--repetitions R] [--clusters none|host]
//                                 [--out FILE]
//
// The measurement is redist::mpi::calibrate_platform's (redist/mpi/calibrate_platform.hpp says
// what it measures and what it costs; docs/mpi.md, "Calibrating a platform for exchanges"). Rank
// 0 writes the document to FILE (default: standard output). Exit 0 on success; 2 on bad input,
// with the same line `error: ... (at --bytes)` on every rank's standard error, before any
// measurement (the command line is agreed first: redist/mpi/command_line.hpp); 3 when MPI cannot
// start or finish.
#include <mpi.h>

// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; nothing here
// calls exit().
#ifdef exit
#undef exit
#endif

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/common/parse.hpp"
#include "redist/io/platform_json.hpp"
#include "redist/mpi/calibrate_platform.hpp"
#include "redist/mpi/command_line.hpp"
#include "redist/mpi/communicator.hpp"

namespace {

namespace rm = redist::mpi;

struct Args {
  std::int64_t bytes = rm::CalibrationOptions{}.bytes;
  std::int64_t repetitions = rm::CalibrationOptions{}.repetitions;
  std::string clusters = "none", out;
};

// An integer option within [lo, hi]: "must be in 1..1073741824"; a text that is no integer is
// left to strict_numbers, which names what is wrong with it.
CLI::Validator in_range(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const auto parsed = redist::parse_integer<std::int64_t>(text);
        const auto* value = std::get_if<std::int64_t>(&parsed);
        if (value == nullptr || (*value >= lo && *value <= hi)) return "";
        return fmt::format("must be in {}..{} (got {})", lo, hi, *value);
      },
      "");
}

// Parses argv into `a`; false after printing --help (rank 0). Throws Error on a bad option.
bool parse_args(int argc, char** argv, int rank, Args& a) {
  CLI::App app{
      "redist-calibrate: measure each rank's bandwidth, the latency and (--clusters host) a\n"
      "backbone between two clusters of hosts, and write the platform file (docs/formats.md).\n"
      "Example (as root add --allow-run-as-root; more ranks than cores: --oversubscribe):\n"
      "  mpirun -np 8 redist-calibrate --bytes 1048576 --out platform.json"};
  app.add_option("--bytes", a.bytes, "bytes of one timed exchange (1..2^30)")
      ->check(in_range(1, rm::kMaxCalibrationBytes))
      ->capture_default_str();
  app.add_option("--repetitions", a.repetitions,
                 "timed exchanges per pair, the fastest kept (1..100)")
      ->check(in_range(1, rm::kMaxCalibrationRepetitions))
      ->capture_default_str();
  app.add_option("--clusters", a.clusters,
                 "none | host: group ranks by host name; two groups: measure their backbone")
      ->check(CLI::IsMember({"none", "host"}))
      ->capture_default_str();
  app.add_option("--out", a.out, "write the platform file here (default: standard output)");
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw rm::Error("redist-calibrate: " + redist::one_line(redist::cli::error_line(e)));
  }
  return true;
}

// Rank 0 opens --out before the measurement, so that a file it cannot write is refused at once
// (on every rank) rather than after the whole calibration.
std::ofstream open_output(const std::string& file, int rank) {
  rm::CallLog log("redist-calibrate", rank);
  std::ofstream out;
  if (rank == 0 && !file.empty()) {
    out.open(file);
    if (!out) log.fail(fmt::format("cannot write {} (at --out)", redist::one_line(file, 200)));
  }
  rm::agree_or_throw(MPI_COMM_WORLD, log);
  return out;
}

// Rank 0 writes the document; a failed write is an error of every rank.
void write_platform(const std::string& text, std::ofstream& out, const std::string& file,
                    int rank) {
  rm::CallLog log("redist-calibrate", rank);
  if (rank == 0) {
    std::ostream& to = file.empty() ? std::cout : out;
    to << text << std::flush;
    if (!to) log.fail(fmt::format("cannot write {} (at --out)", redist::one_line(file, 200)));
  }
  rm::agree_or_throw(MPI_COMM_WORLD, log);
}

int run(int argc, char** argv, int rank) {
  Args a;
  if (!rm::agree_on_command_line(MPI_COMM_WORLD, "redist-calibrate", argc, argv,
                                 [&] { return parse_args(argc, argv, rank, a); })) {
    return 0;
  }
  const rm::CalibrationOptions options{a.bytes, static_cast<int>(a.repetitions),
                                       a.clusters == "host"};
  std::ofstream out = open_output(a.out, rank);
  const redist::exchange::Platform platform = rm::calibrate_platform(MPI_COMM_WORLD, options);
  write_platform(redist::io::platform_json(platform), out, a.out, rank);
  return 0;
}

// One line per write, so that the lines of different ranks never mix.
void print_error_line(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 3;
  int rank = 0, exit_code = 0;
  try {
    // Failures come back as codes, so that they end as `error:` lines, not as the runtime's abort.
    if (MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
        MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_COMM_WORLD cannot be used");
    }
    exit_code = run(argc, argv, rank);
  } catch (const rm::Error& e) {
    // Collective: every rank throws the same error at the same point, so all finish cleanly.
    print_error_line("error: " + redist::one_line(e.what(), 600) + "\n");
    exit_code = 2;
  } catch (const std::exception& e) {
    // Not collective (out of memory on one rank): the others may wait in a collective; end the job.
    print_error_line("error: redist-calibrate: rank " + std::to_string(rank) + ": " +
                     redist::one_line(e.what(), 400) + "\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  if (MPI_Finalize() != MPI_SUCCESS && exit_code == 0) exit_code = 3;
  return exit_code;
}
