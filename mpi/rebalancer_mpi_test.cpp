// rebalancer-mpi-test: checks redist::mpi::Rebalancer under mpirun (ours; the ctest entries
// mpi_run_rebalancer_* in mpi/CMakeLists.txt run it through mpi/mpi_run_test.sh).
//
//   mpirun -np P rebalancer-mpi-test --policy NAME --iterations K --items N
//          [--clocks skewed|wtime] [--split] [--out-of-place] [--fault KIND:RANK]
//
// Every rank holds a block of int64 items carrying their global index. Rank r's speed changes
// twice (after K/3 and 2K/3 iterations), so that policies rebalance. Each iteration a rank
// reports its work (its count) and a time:
//   synthetic (default): count / speed, the same on every host;
//   skewed: the same duration read on a clock of its own (offset 1000 r seconds, rate 1 + r/100),
//           so every rank reports different values;
//   wtime:  start_iteration / end_iteration around a busy loop of count / speed x 20 us.
// After every maybe_rebalance (or decide + plan + execute with --split) it checks that the block
// holds the items [global_start, global_start + count) in order, that counts agree, and that
// every rank's report (all fields but count and global_start) is byte-identical to rank 0's.
// Rank 0 prints one JSON line; exit 0 when verified, 1 if not, 2 on a collective error (every
// rank prints the same `error:` line).
// Faults (--fault KIND:RANK, at iteration 2 unless said): bad-time (time -1), nan-time, no-time
// (nothing recorded), bad-work (work -5), no-start (end_iteration without start_iteration),
// bad-size (one item too many in data), other-policy (at construction: `never`),
// other-iterations (K + 1), negative-count (at construction), too-many (every rank decides once
// more than K; RANK ignored).
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "mpi/rebalancer.hpp"
#include "redist/common/error.hpp"

namespace {

constexpr double kWtimeUnit = 2e-5;  // seconds per time unit with --clocks wtime

struct Args {
  std::string policy = "cost-benefit";
  std::int64_t iterations = 12;
  std::int64_t items = 200;
  std::string clocks = "synthetic";
  bool split = false;
  bool out_of_place = false;
  std::string fault_kind;
  int fault_rank = -1;
};

double speed(int rank, int size, std::int64_t t, std::int64_t k) {
  const std::int64_t phase = 3 * t / std::max<std::int64_t>(k, 1);  // 0, 1, 2
  return 10.0 + 7.0 * static_cast<double>((rank + phase * (1 + size / 2)) % size);
}

// The report as text, without the rank's own fields.
std::string common_text(const redist::mpi::RebalanceReport& r) {
  std::ostringstream s;
  s.precision(17);
  s << r.after_iteration << '|' << r.rebalanced << '|' << r.reason << '|' << r.predicted_saving
    << '|' << r.plan_makespan << '|' << r.redistribution_seconds << '|' << r.iteration_time;
  for (std::int64_t c : r.counts) s << ',' << c;
  return s.str();
}

// 1 if rank 0's text differs from this rank's, reduced over ranks.
int differs_from_root(const std::string& text) {
  std::string root = text;
  std::int64_t len = static_cast<std::int64_t>(root.size());
  MPI_Bcast(&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  root.resize(static_cast<std::size_t>(len));
  MPI_Bcast(root.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD);
  int bad = root != text;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return bad;
}

std::int64_t bad_items(const std::vector<std::int64_t>& data, const redist::mpi::Rebalancer& rb) {
  std::int64_t bad = static_cast<std::int64_t>(data.size()) != rb.count();
  for (std::size_t j = 0; j < data.size(); ++j) {
    const std::int64_t want = (rb.global_start() + static_cast<std::int64_t>(j)) % rb.items();
    bad += data[j] != want;
  }
  return bad;
}

void busy_wait(double seconds) {
  const double end = MPI_Wtime() + seconds;
  volatile double x = 1.0;
  while (MPI_Wtime() < end) x = x * 1.0000001 + 1e-9;
}

// This iteration's report, with the fault of this rank if it is due.
void report(redist::mpi::Rebalancer& rb, const Args& a, int rank, int size, std::int64_t t) {
  const double work = static_cast<double>(rb.count());
  const double duration = work / speed(rank, size, t, a.iterations);
  const bool fault = a.fault_rank == rank && t == 1;
  if (fault && a.fault_kind == "no-time") return;
  if (fault && a.fault_kind == "no-start") return rb.end_iteration(work);
  if (fault && a.fault_kind == "bad-time") return rb.record(work, -1.0);
  if (fault && a.fault_kind == "nan-time") return rb.record(work, std::nan(""));
  if (fault && a.fault_kind == "bad-work") return rb.record(-5.0, 1.0);
  if (a.clocks == "wtime") {
    rb.start_iteration();
    busy_wait(duration * kWtimeUnit);
    return rb.end_iteration(work);
  }
  if (a.clocks == "skewed") {
    const double offset = 1000.0 * rank, rate = 1.0 + rank / 100.0, now = 50.0 * t;
    return rb.record(work, (offset + rate * (now + duration)) - (offset + rate * now));
  }
  rb.record(work, duration);
}

int run(const Args& a, int rank, int size) {
  const std::int64_t n = a.items;
  std::int64_t count = n / size + (rank < n % size ? 1 : 0);
  std::int64_t start = 0;
  for (int r = 0; r < rank; ++r) start += n / size + (r < n % size ? 1 : 0);
  std::vector<std::int64_t> data(static_cast<std::size_t>(count));
  std::iota(data.begin(), data.end(), start);
  const bool mine = a.fault_rank == rank;
  std::string policy = mine && a.fault_kind == "other-policy" ? "never" : a.policy;
  std::int64_t k = mine && a.fault_kind == "other-iterations" ? a.iterations + 1 : a.iterations;
  if (mine && a.fault_kind == "negative-count") count = -1;
  // Link costs in the unit of the reported times (wtime: 20 us per time unit).
  const double unit = a.clocks == "wtime" ? kWtimeUnit : 1.0;
  redist::mpi::LinkCosts costs{unit * 0.01 * (1 + rank % 3), unit * (0.02 + 0.005 * (rank % 2))};
  redist::mpi::Rebalancer rb(MPI_COMM_WORLD, count, costs, policy, k);
  std::int64_t bad = 0, rebalances = 0, differ = 0, rotated = 0;
  std::string log;  // printed at the end: stdout stays empty on a collective error
  const std::int64_t decisions = a.iterations + (a.fault_kind == "too-many" ? 1 : 0);
  for (std::int64_t t = 0; t < decisions; ++t) {
    report(rb, a, rank, size, t);
    if (mine && t == 1 && a.fault_kind == "bad-size") data.push_back(0);
    redist::mpi::RebalanceReport r;
    if (a.split) {
      const redist::mpi::RebalanceDecision d = rb.decide();
      r.after_iteration = d.after_iteration;
      r.rebalanced = d.rebalance;
      r.reason = d.reason;
      r.predicted_saving = d.predicted_saving;
      r.iteration_time = d.iteration_time;
      r.plan_makespan = d.plan_makespan;
      if (d.rebalance) {
        if (const auto plan = rb.plan(d)) plan->execute(data);
      }
      r.redistribution_seconds = 0.0;
      r.counts = rb.counts();
    } else if (a.out_of_place) {
      std::vector<std::int64_t> out;
      r = rb.maybe_rebalance(data, out);
      if (r.moved) data.swap(out);
    } else {
      r = rb.maybe_rebalance(data);
    }
    rebalances += r.rebalanced;
    rotated += rank == 0 && rb.global_start() != 0;
    // Measured times differ between runs, not between ranks (they are max-reduced).
    differ += differs_from_root(common_text(r));
    bad += bad_items(data, rb);
    if (std::accumulate(rb.counts().begin(), rb.counts().end(), std::int64_t{0}) != n) ++bad;
    if (rank == 0 && r.rebalanced) {
      log += fmt::format("after iteration {}: {} (saving {:.4g}, makespan {:.4g})\n",
                         r.after_iteration, r.reason, r.predicted_saving, r.plan_makespan);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  const bool verified = bad == 0 && differ == 0;
  if (rank == 0) {
    std::cout
        << log
        << fmt::format(
               "{{\"policy\": \"{}\", \"ranks\": {}, \"items\": {}, \"iterations\": {}, "
               "\"clocks\": \"{}\", \"rebalances\": {}, \"rotated\": {}, \"reports_differ\": {}, "
               "\"bad_items\": {}, \"verified\": {}}}",
               a.policy, size, n, a.iterations, a.clocks, rebalances, rotated, differ, bad,
               verified)
        << std::endl;
  }
  return verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args a;
  std::string fault;
  CLI::App app{"rebalancer-mpi-test: checks redist::mpi::Rebalancer under mpirun"};
  app.add_option("--policy", a.policy);
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 1000));
  app.add_option("--items", a.items)->check(CLI::Range(1, 1000000));
  app.add_option("--clocks", a.clocks)->check(CLI::IsMember({"synthetic", "skewed", "wtime"}));
  app.add_flag("--split", a.split);
  app.add_flag("--out-of-place", a.out_of_place);
  app.add_option("--fault", fault, "KIND:RANK");
  int code = 0;
  try {
    app.parse(argc, argv);
    if (!fault.empty()) {
      const auto colon = fault.find(':');
      a.fault_kind = fault.substr(0, colon);
      a.fault_rank = colon == std::string::npos ? -1 : std::stoi(fault.substr(colon + 1));
    }
    code = run(a, rank, size);
  } catch (const redist::mpi::Error& e) {
    const std::string line = "error: " + redist::one_line(e.what(), 600) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "error: rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return code;
}
