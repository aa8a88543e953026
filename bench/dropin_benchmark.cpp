// The drop-in's cost when it does not help (docs/dropin-benchmark.md): redist_alltoallv
// (redist/mpi/dropin.h) against the MPI library's own MPI_Alltoallv on the same buffers, per call,
// on the real MPI of the machine. Run under mpirun, one process per mode of the drop-in (it reads
// REDIST_ALLTOALLV once per process):
//   mpirun -np 2 build/bench/dropin_benchmark --redist_alltoallv=never   # pass-through
//   REDIST_MIN_GAIN=0.99 mpirun -np 2 build/bench/dropin_benchmark --redist_alltoallv=auto
//                                                                        # fallen back to native
// --redist_alltoallv=MODE sets REDIST_ALLTOALLV before the first call (default: the environment's,
// else auto). REDIST_MIN_GAIN=0.99 has every pattern decided native (no plan is predicted to gain
// that much); plain auto may keep a plan. Every rank sends `size` bytes to every rank (itself
// included); size is the argument: 8 B, 4 KiB, 256 KiB.
//
// Benchmarks:
// - MPI_Alltoallv/SIZE: the native call alone.
// - redist_alltoallv:MODE/SIZE: the drop-in, with the native call measured in the same iterations
//   (alternately first and second) so that both see the same machine. Counters, from the medians
//   over the repetition's iterations (robust to the preemptions of a loaded machine, which the
//   mean time of the row is not): native_us and redist_us per call, overhead = redist / native -
//   1, diff_us = redist - native.
//   Under auto, the pattern is called 10 times before the timing (its first calls run the native
//   call, timed, then a plan is tried and dropped when slower: docs/dropin.md), and the counter
//   native_choice is 1 when the drop-in's report says the pattern now runs the native call.
// Times: each iteration times a batch of kBatch calls between a barrier and an MPI_Allreduce of
// the ranks' durations; a call's time is the slowest rank's batch time / kBatch (a collective is
// over when its last rank is done). The time reported is manual: that per-call time.
//
// Under MPI every rank must make the same calls, or the collectives deadlock: the iteration counts
// are fixed (no estimation runs), the repetitions too, and only rank 0 reports (the other ranks
// get a reporter that prints nothing).
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/exchange/platform.hpp"
#include "redist/mpi/dropin.h"
#include "redist/mpi/exchange.hpp"

namespace {

constexpr int kBatch = 10;        // calls per timed batch
constexpr int kIterations = 200;  // batches per repetition
constexpr int kRepetitions = 5;
constexpr int kWarmup = 10;  // calls before the timing (auto decides within the first few)

std::string mode_name = "auto";  // REDIST_ALLTOALLV of this process

int rank_of() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size_of() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// One exchange's buffers: `bytes` to and from every rank.
struct Buffers {
  explicit Buffers(std::int64_t bytes) : p(size_of()) {
    const int n = static_cast<int>(bytes);
    counts.assign(p, n);
    displs.resize(p);
    for (int j = 0; j < p; ++j) displs[j] = j * n;
    send.resize(static_cast<std::size_t>(p) * n);
    recv.resize(send.size());
    const int r = rank_of();
    // Byte k of the block for rank j: a function of (sender, receiver, k), checked after warm-up.
    for (int j = 0; j < p; ++j) {
      for (int k = 0; k < n; ++k) send[j * n + k] = expected(r, j, k);
    }
  }
  static char expected(int from, int to, int k) {
    return static_cast<char>(from * 31 + to * 7 + k);
  }
  // Whether this rank received each rank's block.
  bool received() const {
    const int r = rank_of(), n = counts[0];
    for (int i = 0; i < p; ++i) {
      for (int k = 0; k < n; ++k) {
        if (recv[i * n + k] != expected(i, r, k)) return false;
      }
    }
    return true;
  }
  int p;
  std::vector<int> counts, displs;
  std::vector<char> send, recv;
};

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    std::fprintf(stderr, "dropin_benchmark: %s returned MPI error %d\n", what, code);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

void native(Buffers& b) {
  check(MPI_Alltoallv(b.send.data(), b.counts.data(), b.displs.data(), MPI_BYTE, b.recv.data(),
                      b.counts.data(), b.displs.data(), MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Alltoallv");
}

void dropin(Buffers& b) {
  check(redist_alltoallv(b.send.data(), b.counts.data(), b.displs.data(), MPI_BYTE, b.recv.data(),
                         b.counts.data(), b.displs.data(), MPI_BYTE, MPI_COMM_WORLD),
        "redist_alltoallv");
}

// Seconds per call of `call` over one batch, the slowest rank's (the same on every rank).
template <class Call>
double timed_batch(Buffers& b, Call call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int k = 0; k < kBatch; ++k) call(b);
  const double local = MPI_Wtime() - start;
  double slowest = 0.0;
  MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest / kBatch;
}

// Every rank received every block (after warm-up: a wrong result would make the times
// meaningless); aborts otherwise.
void check_received(const Buffers& b, const char* what) {
  int ok = b.received() ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all == 0) {
    if (rank_of() == 0) std::fprintf(stderr, "dropin_benchmark: %s delivered wrong data\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

// 1 when the drop-in's report says the pattern of `b` runs the native call, 0 when it runs
// redist's plan, -1 when the report does not have it (the same on every rank: rank 0 reads the
// report, which only it writes, and broadcasts the answer).
double runs_native(const Buffers& b) {
  double answer = -1.0;
  if (rank_of() == 0) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                       ("redist-dropin-benchmark-" + std::to_string(getpid()));
    if (redist_dropin_report(path.c_str()) == MPI_SUCCESS) {
      std::ifstream file(path);
      const nlohmann::json report = nlohmann::json::parse(file, nullptr, false);
      const std::int64_t bytes = static_cast<std::int64_t>(b.p) * (b.p - 1) * b.counts[0];
      if (report.contains("report") && report["report"].contains("patterns")) {
        for (const nlohmann::json& pattern : report["report"]["patterns"]) {
          if (pattern.value("ranks", 0) == b.p &&
              pattern.value("bytes", std::int64_t{0}) == bytes) {
            answer = pattern.value("choice", "") == "native" ? 1.0 : 0.0;
          }
        }
      }
    }
    std::filesystem::remove(path);
  }
  MPI_Bcast(&answer, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return answer;
}

// The median of `values` (the mean of the two middle ones for an even count).
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n == 0) return 0.0;
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

void BM_Native(benchmark::State& state) {
  Buffers b(state.range(0));
  for (int k = 0; k < kWarmup; ++k) native(b);
  check_received(b, "MPI_Alltoallv");
  for (auto _ : state) state.SetIterationTime(timed_batch(b, native));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(b.send.size()));
}

// Times `base` and `subject` in the same iterations, alternately first (so that both see the same
// machine); the iteration's time is the subject's. Returns the medians per call (base, subject).
template <class Base, class Subject>
std::pair<double, double> alternated(benchmark::State& state, Buffers& b, Base base,
                                     Subject subject) {
  std::vector<double> base_s, subject_s;  // per call, one entry per iteration
  bool base_first = true;
  for (auto _ : state) {
    double x = 0.0, y = 0.0;
    if (base_first) {
      x = timed_batch(b, base);
      y = timed_batch(b, subject);
    } else {
      y = timed_batch(b, subject);
      x = timed_batch(b, base);
    }
    base_first = !base_first;
    state.SetIterationTime(y);
    base_s.push_back(x);
    subject_s.push_back(y);
  }
  return {median(base_s), median(subject_s)};
}

void BM_Dropin(benchmark::State& state) {
  Buffers b(state.range(0));
  for (int k = 0; k < kWarmup; ++k) dropin(b);
  check_received(b, "redist_alltoallv");
  const auto [n, r] = alternated(state, b, native, dropin);
  state.counters["native_us"] = n * 1e6;
  state.counters["redist_us"] = r * 1e6;
  state.counters["overhead"] = r / n - 1.0;
  state.counters["diff_us"] = (r - n) * 1e6;
  if (mode_name == "auto") state.counters["native_choice"] = runs_native(b);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(b.send.size()));
}

// The exchange itself: the same transfers as `x`, in the same order and with the same discipline
// (at most one send and one receive outstanding, the next posted when the previous completed), on
// plain MPI: no argument check, no failure notice, no agreement at the end. The local block is
// copied as execute copies it.
void bare_transfers(const redist::mpi::Exchange& x, Buffers& b,
                    const std::vector<std::int64_t>& displs) {
  const int me = rank_of();
  std::memmove(b.recv.data() + b.displs[me], b.send.data() + b.displs[me],
               static_cast<std::size_t>(b.counts[me]));
  const auto& t = x.transfers();
  std::size_t next[2] = {0, 0};
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  const auto post = [&](int port) {
    const auto& list = port == 0 ? t.sends : t.recvs;
    if (next[port] == list.size()) return;
    const redist::mpi::Transfer& tr = list[next[port]++];
    const auto at = static_cast<std::size_t>(displs[static_cast<std::size_t>(tr.peer)] + tr.offset);
    const int bytes = static_cast<int>(tr.bytes);
    check(port == 0 ? MPI_Isend(b.send.data() + at, bytes, MPI_BYTE, tr.peer, 9, MPI_COMM_WORLD,
                                &requests[0])
                    : MPI_Irecv(b.recv.data() + at, bytes, MPI_BYTE, tr.peer, 9, MPI_COMM_WORLD,
                                &requests[1]),
          "bare transfer");
  };
  post(0);
  post(1);
  while (requests[0] != MPI_REQUEST_NULL || requests[1] != MPI_REQUEST_NULL) {
    int port = MPI_UNDEFINED;
    check(MPI_Waitany(2, requests, &port, MPI_STATUS_IGNORE), "MPI_Waitany");
    if (port != MPI_UNDEFINED) post(port);
  }
}

// A plan executed again and again (redist::mpi::Exchange, planned once on rank 0 for ports of
// 10 GB/s) against the exchange itself (bare_transfers), in the same iterations, alternately
// first: counters exchange_us and bare_us per call, overhead_us = their difference, model_us =
// the plan's makespan, and overhead_of_model = overhead_us / model_us.
void BM_CachedPlan(benchmark::State& state) {
  Buffers b(state.range(0));
  const std::vector<std::int64_t> counts(b.counts.begin(), b.counts.end());
  const std::vector<std::int64_t> displs(b.displs.begin(), b.displs.end());
  redist::exchange::Platform platform;
  platform.ranks = static_cast<std::size_t>(b.p);
  platform.send_bandwidth.assign(platform.ranks, 1e10);
  platform.recv_bandwidth.assign(platform.ranks, 1e10);
  redist::mpi::Exchange x(MPI_COMM_WORLD, counts, platform);
  const auto run = [&](Buffers& buffers) {
    x.execute(buffers.send.data(), counts, displs, buffers.recv.data(), counts, displs);
  };
  const auto bare = [&](Buffers& buffers) { bare_transfers(x, buffers, displs); };
  for (int k = 0; k < kWarmup; ++k) run(b);
  check_received(b, "Exchange::execute");
  std::fill(b.recv.begin(), b.recv.end(), 0);
  for (int k = 0; k < kWarmup; ++k) bare(b);
  check_received(b, "the bare transfers");
  const auto [r, e] = alternated(state, b, bare, run);
  state.counters["exchange_us"] = e * 1e6;
  state.counters["bare_us"] = r * 1e6;
  state.counters["overhead_us"] = (e - r) * 1e6;
  state.counters["model_us"] = x.model_makespan() * 1e6;
  state.counters["overhead_of_model"] = (e - r) / x.model_makespan();
}

// For the ranks but 0: the runs are made, nothing is printed.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(8)->Arg(4 << 10)->Arg(256 << 10);
  b->Iterations(kIterations)->Repetitions(kRepetitions)->ReportAggregatesOnly(true);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  // --redist_alltoallv=MODE: into the environment before the drop-in's first call reads it. Taken
  // out of argv, as the flags of MPI and of the benchmark library are.
  const std::string flag = "--redist_alltoallv=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(flag, 0) == 0) {
      setenv("REDIST_ALLTOALLV", arg.substr(flag.size()).c_str(), 1);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (const char* mode = std::getenv("REDIST_ALLTOALLV"); mode != nullptr && *mode != '\0') {
    mode_name = mode;
  }

  MPI_Init(&argc, &argv);
  const bool reporting = rank_of() == 0;
  if (!reporting) {
    // Only rank 0 writes a --benchmark_out file too.
    kept = 1;
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]).rfind("--benchmark_out", 0) != 0) argv[kept++] = argv[i];
    }
    argc = kept;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    MPI_Finalize();
    return 1;
  }
  // The library keeps what it registers; clang's static analyzer cannot see it do so and reports
  // the allocation inside benchmark.h as a leak, so it does not read these lines.
#ifndef __clang_analyzer__
  benchmark::RegisterBenchmark("MPI_Alltoallv", BM_Native)->Apply(sizes);
  std::string name = "redist_alltoallv:" + mode_name;
  if (const char* gain = std::getenv("REDIST_MIN_GAIN"); gain != nullptr && *gain != '\0') {
    name += std::string(",min_gain=") + gain;
  }
  benchmark::RegisterBenchmark(name.c_str(), BM_Dropin)->Apply(sizes);
  benchmark::RegisterBenchmark("Exchange::execute", BM_CachedPlan)
      ->Arg(1 << 20)
      ->Iterations(kIterations / 4)
      ->Repetitions(kRepetitions)
      ->ReportAggregatesOnly(true)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
#endif
  if (reporting) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    SilentReporter silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
