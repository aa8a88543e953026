// SimGrid SMPI benchmarks of the MPI layer: the effect of the segment size and of the
// staging window on the simulated time of a redistribution. Each benchmark runs redist-smpi under
// smpirun on a generated ring platform and reports the *simulated* seconds as its (manual) time,
// with the model's makespan and (simulated - check) / model as counters; SMPI is deterministic,
// so one iteration suffices. Paths to the tools are compiled in (CMakeLists.txt here); the SMPI
// settings are those of smpirun_redist.sh.
//
//   build/bench/mpi_smpi_benchmark [--benchmark_filter=Segment]
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace {

std::string run_command(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) {
    out += buffer.data();
  }
  return out;
}

struct Run {
  double measured = 0, check = 0, model = 0, staging = 0;
};

// One simulated execution of `instance` (apps/redist-mpi/testdata) with the driver's extra
// arguments.
Run simulate(const std::string& instance, double latency, bool one_port, const std::string& args) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("redist-bench-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = std::string(REDIST_MPI_TESTDATA) + "/" + instance;
  const std::string platform = (dir / "platform.xml").string(),
                    hosts = (dir / "hosts.txt").string();
  run_command(fmt::format(
      "{}/redist-smpi-platform --instance {} --item-bytes 1000 --latency {} {} --platform {} "
      "--hostfile {} 2>&1",
      REDIST_BUILD_DIR, path, latency, one_port ? "--one-port" : "", platform, hosts));
  const std::string out = run_command(
      fmt::format("SMPIRUN={} {} {} {} {} {} --instance {} --item-bytes 1000 {} {} 2>/dev/null",
                  REDIST_SMPIRUN, REDIST_SMPIRUN_SCRIPT, REDIST_BUILD_DIR, platform, hosts,
                  one_port ? "--one-port-platform" : "", path, one_port ? "--one-port" : "", args));
  std::filesystem::remove_all(dir);
  const auto line = out.find('{');
  if (line == std::string::npos) throw std::runtime_error("no result from: " + args + "\n" + out);
  const nlohmann::json result =
      nlohmann::json::parse(out.substr(line, out.find('\n', line) - line));
  if (!result.at("verified").get<bool>()) throw std::runtime_error("not verified: " + args);
  return {result.at("measured_seconds").get<double>(), result.at("check_seconds").get<double>(),
          result.at("model_makespan").get<double>(), result.at("max_staging_bytes").get<double>()};
}

void report(benchmark::State& state, const Run& run) {
  state.SetIterationTime(run.measured);
  state.counters["model_s"] = run.model;
  state.counters["ratio"] = (run.measured - run.check) / run.model;
  state.counters["staging_bytes"] = run.staging;
}

// Segment size K on a unidirectional chain with 50 ms of latency per link: 1,600 items of 1 kB,
// every group cut into segments of exactly K items (--min-segments 1).
void BM_SegmentSize(benchmark::State& state) {
  for ([[maybe_unused]] auto _ : state) {
    try {
      report(state, simulate("uni-4-large.json", 0.05, false,
                             fmt::format("--segment-items {} --min-segments 1", state.range(0))));
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
  }
}
BENCHMARK(BM_SegmentSize)
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->Arg(1000)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Segments per group (--min-segments M, default 64) at the default segment_items 1024: the
// comparison's alternating ring (4,000 items of 1 kB, 8 all-port hosts, latency 10 ms).
void BM_MinSegments(benchmark::State& state) {
  for ([[maybe_unused]] auto _ : state) {
    try {
      report(state, simulate("alternating-8.json", 0.01, false,
                             fmt::format("--min-segments {}", state.range(0))));
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
  }
}
BENCHMARK(BM_MinSegments)
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Staging window (0: automatic, from the model's schedule) on 12,000 items over 8 one-port hosts
// whose forwarders have slower outgoing links, in place, K = 16.
void BM_Window(benchmark::State& state) {
  for ([[maybe_unused]] auto _ : state) {
    try {
      report(state, simulate("bidi-8-large.json", 0, true,
                             fmt::format("--segment-items 16 --window {}", state.range(0))));
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
  }
}
BENCHMARK(BM_Window)
    ->Arg(2)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->Arg(0)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
