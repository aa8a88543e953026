// calibrate-mpi-test: redist::mpi::calibrate_platform under mpirun (mpi/calibrate_platform.hpp).
//
//   mpirun -np P calibrate-mpi-test [--bytes B] [--repetitions R] [--hosts same|split]
//          [--fail CALL:RANK[:NTH]] [--fault bytes|differ:RANK]
//
// Checks that every rank returns the same platform (its document's hash agreed over the ranks),
// that it passes validate_platform with P ranks, a latency and bandwidths > 0 and the calibration
// info of the options, that its document reads back into the same document (io/platform_json),
// and the host grouping rule (host_cluster_key). --hosts: the processor names the calibration
// sees (calibration_test.hpp): `same` gives every rank one host ("node-<rank>": one cluster, no
// backbone), `split` the first half "alpha-<rank>" and the others "beta<rank>.example.org" (two
// clusters: a backbone with exactly those clusters). Rank 0 prints one JSON line
// {"verified": true, ...}; exit 0 when all holds, 1 if not.
// Collective errors (mpi_run_test.sh's error mode: exit 2, the same `error:` line on every rank):
// --fail CALL:RANK[:NTH] makes RANK's NTH library call of CALL fail
// (testing/mpi_fault_injection.hpp);
// --fault bytes:RANK passes bytes 0 on RANK, differ:RANK one more repetition on RANK.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/common/error.hpp"
#include "redist/io/platform_json.hpp"
#include "redist/mpi/calibrate_platform.hpp"
#include "redist/mpi/calibration_test.hpp"
#include "redist/mpi/communicator.hpp"
#include "redist/testing/mpi_fault_injection.hpp"

namespace {

namespace rm = redist::mpi;
namespace ex = redist::exchange;

struct Args {
  std::int64_t bytes = 4096;
  int repetitions = 2;
  std::string hosts, fail, fault;
};

struct World {
  int rank = 0, size = 1;
};

// The failed checks of this rank, one line each.
std::vector<std::string> failures;

void expect(bool ok, const std::string& what) {
  if (!ok) failures.push_back(what);
}

void check_host_keys() {
  const std::pair<const char*, const char*> cases[] = {{"node-12.example.org", "node"},
                                                       {"Node-3", "node"},
                                                       {"gros-42", "gros"},
                                                       {"c2n07", "c2n"},
                                                       {"localhost", "localhost"},
                                                       {"1234", "1234"},
                                                       {"rack_7-node_3", "rack_7-node"}};
  for (const auto& [name, key] : cases) {
    expect(rm::host_cluster_key(name) == key,
           fmt::format("host_cluster_key({}) is {}", name, rm::host_cluster_key(name)));
  }
  const std::vector<std::string> names = {"b-1", "a-2", "b-3.x", "A-4"};
  int count = 0;
  expect(rm::host_clusters(names, count) == std::vector<int>{0, 1, 0, 1} && count == 2,
         "host_clusters numbers clusters by first appearance");
}

// The name this rank's host has for the calibration (--hosts).
void set_host(const Args& a, const World& w) {
  if (a.hosts == "same") rm::testing::set_processor_name(fmt::format("node-{}", w.rank));
  if (a.hosts == "split") {
    rm::testing::set_processor_name(w.rank < w.size / 2
                                        ? fmt::format("alpha-{}", w.rank)
                                        : fmt::format("beta{}.example.org", w.rank));
  }
}

// --fail and --fault: arms the failure or returns this rank's (wrong) options.
rm::CalibrationOptions options_of(const Args& a, const World& w) {
  rm::CalibrationOptions o{a.bytes, a.repetitions, !a.hosts.empty()};
  if (!a.fail.empty()) {
    const auto first = a.fail.find(':'), second = a.fail.find(':', first + 1);
    const int rank = std::stoi(a.fail.substr(first + 1, second - first - 1));
    const std::int64_t nth =
        second == std::string::npos ? 1 : std::stoll(a.fail.substr(second + 1));
    if (rank == w.rank) rm::testing::inject_failure(a.fail.substr(0, first), nth);
  }
  if (!a.fault.empty()) {
    const auto colon = a.fault.find(':');
    const bool mine = std::stoi(a.fault.substr(colon + 1)) == w.rank;
    if (mine && a.fault.starts_with("bytes")) o.bytes = 0;
    if (mine && a.fault.starts_with("differ")) o.repetitions += 1;
  }
  return o;
}

// Whether every rank holds the same text (its hash agreed: maximum and minimum equal).
bool same_everywhere(const std::string& text) {
  const auto h = static_cast<std::int64_t>(std::hash<std::string>{}(text) >> 1);
  std::int64_t words[2] = {h, -h};
  MPI_Allreduce(MPI_IN_PLACE, words, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return words[0] == -words[1];
}

void check_platform(const ex::Platform& p, const Args& a, const World& w) {
  try {
    ex::validate_platform(p);
  } catch (const redist::InputError& e) {
    failures.push_back(std::string("invalid platform: ") + e.what());
    return;
  }
  expect(p.ranks == static_cast<std::size_t>(w.size), "ranks");
  expect(p.latency > 0, "latency > 0");
  expect(p.send_bandwidth == p.recv_bandwidth, "send and receive bandwidths equal");
  expect(p.calibration && p.calibration->bytes == a.bytes &&
             p.calibration->repetitions == a.repetitions && p.calibration->seconds > 0,
         "calibration info");
  if (a.hosts == "split") {
    std::vector<std::int64_t> alpha, beta;
    for (int i = 0; i < w.size; ++i) (i < w.size / 2 ? alpha : beta).push_back(i);
    expect(p.backbone && p.backbone->clusters[0] == alpha && p.backbone->clusters[1] == beta,
           "a backbone between the two host clusters");
  } else {
    expect(!p.backbone, "no backbone with one cluster");
  }
  const std::string text = redist::io::platform_json(p);
  expect(redist::io::platform_json(redist::io::read_platform(text)) == text, "round trip");
}

int run(const Args& a, const World& w) {
  check_host_keys();
  set_host(a, w);
  const ex::Platform p = rm::calibrate_platform(MPI_COMM_WORLD, options_of(a, w));
  check_platform(p, a, w);
  const std::string text = redist::io::platform_json(p);
  expect(same_everywhere(text), "the platform differs between ranks");
  for (const std::string& f : failures) std::fprintf(stderr, "rank %d: %s\n", w.rank, f.c_str());
  int bad = failures.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (w.rank == 0) {
    const auto [low, high] = std::minmax_element(p.send_bandwidth.begin(), p.send_bandwidth.end());
    std::cout << fmt::format(
        "{{\"verified\": {}, \"ranks\": {}, \"latency\": {}, \"bandwidth\": [{}, {}], "
        "\"backbone\": {}, \"seconds\": {}}}\n",
        bad == 0 ? "true" : "false", p.ranks, p.latency, *low, *high,
        p.backbone ? fmt::format("{}", p.backbone->bandwidth) : "null", p.calibration->seconds);
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  CLI::App app{"calibrate-mpi-test: redist::mpi::calibrate_platform under mpirun"};
  Args a;
  app.add_option("--bytes", a.bytes, "bytes of a timed exchange");
  app.add_option("--repetitions", a.repetitions, "timed exchanges per pair");
  app.add_option("--hosts", a.hosts, "same|split: the host names the calibration sees")
      ->check(CLI::IsMember({"same", "split"}));
  app.add_option("--fail", a.fail, "CALL:RANK[:NTH], an injected MPI failure");
  app.add_option("--fault", a.fault, "bytes|differ:RANK, options refused collectively");
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = run(a, w);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  } catch (const rm::Error& e) {
    const std::string line = "error: " + redist::one_line(e.what(), 600) + "\n";
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
