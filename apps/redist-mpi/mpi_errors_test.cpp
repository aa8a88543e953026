// mpi-errors-test: a failing MPI call inside the library reaches every rank as the same
// redist::mpi::Error, no rank hangs, and the objects stay usable (docs/mpi.md, "MPI errors").
//
//   mpirun -np P mpi-errors-test --step STEP --fail CALL:RANK[:NTH] [--segment-items K]
//          [--one-port] [--out-of-place] [--print-error]
//
// MPI_COMM_WORLD, the communicator every call is given, has MPI_ERRORS_RETURN. Rank RANK arms a
// failure of its NTH call of the MPI function CALL in the library (testing/mpi_fault_injection.hpp)
// just before the step under test:
//   construct   a Redistribution is built (then executed);
//   execute     a Redistribution built beforehand executes (in place, or --out-of-place);
//   calibrate   calibrate_link_costs;
//   alltoallv   alltoallv_execute, linear: lau_linear_execute (the baselines, mpi/baselines.hpp);
//   rebalance   a Rebalancer (policy every:1) decides and rebalances.
// The ring: loads 40 x ((7i + 3) mod 5) items on rank i, the same total spread evenly, costs
// between 1 and 3, items of one int64 (their global index), K items per message (default 2), so
// that every rank sends and receives many messages.
// Every rank must catch an Error whose message is byte-identical to rank 0's and says "CALL failed
// on rank RANK", and the failure must have been injected exactly once. Then the step runs again
// on the same objects without the failure and every item must arrive in order: a failed step
// leaves no message behind to be matched by the next. Rank 0 prints one JSON line; exit 0 when
// all holds, 1 if not. --print-error: every rank prints the error it caught as `error: ...` on
// stderr and the run exits 2 (what mpi_run_test.sh checks in its error mode).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/common/error.hpp"
#include "redist/mpi/baselines.hpp"
#include "redist/mpi/rebalancer.hpp"
#include "redist/mpi/redistribution.hpp"
#include "redist/testing/mpi_fault_injection.hpp"

namespace {

using redist::mpi::wrap;

struct Args {
  std::string step = "execute";
  std::string call;
  int rank = 0;
  std::int64_t nth = 1;
  std::int64_t segment_items = 2;
  bool one_port = false, out_of_place = false, print_error = false;
};

// The test's own MPI calls: a failure there is not the library's, so the run ends (main aborts).
void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed in the test", call));
}

// The ring of the test, the same on every rank.
struct Ring {
  std::vector<std::int64_t> loads, targets;
  std::int64_t total = 0;
};

Ring test_ring(int size) {
  Ring ring;
  for (int i = 0; i < size; ++i) ring.loads.push_back(40 * ((7 * i + 3) % 5));
  for (std::int64_t l : ring.loads) ring.total += l;
  for (int i = 0; i < size; ++i)
    ring.targets.push_back(ring.total / size + (i < ring.total % size));
  return ring;
}

redist::mpi::LinkCosts costs_of(int rank) { return {1.0 + rank % 3, 1.5 + (rank % 2)}; }

redist::mpi::Options options_of(const Args& a, redist::mpi::Mode mode) {
  redist::mpi::Options o;
  o.mode = mode;
  o.segment_items = a.segment_items;
  o.one_port = a.one_port;
  return o;
}

// Items carrying their global index (mod total), from `start`.
std::vector<std::int64_t> block(std::int64_t start, std::int64_t count, std::int64_t total) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) v[k] = wrap(start + k, std::max<std::int64_t>(total, 1));
  return v;
}

std::int64_t wrong_items(const std::vector<std::int64_t>& v, std::int64_t start, std::int64_t count,
                         std::int64_t total) {
  std::int64_t bad = static_cast<std::int64_t>(v.size()) != count;
  const std::vector<std::int64_t> want = block(start, count, total);
  for (std::size_t k = 0; k < std::min(v.size(), want.size()); ++k) bad += v[k] != want[k];
  return bad;
}

// One step under test. attempt() runs it once, calling `arm` just before the library call under
// test, and returns this rank's wrong items; it throws what the library throws.
class Step {
 public:
  virtual ~Step() = default;
  virtual std::int64_t attempt(const std::function<void()>& arm) = 0;
};

// Builds a Redistribution in the attempt (the constructor is under test), then executes it.
class Construct final : public Step {
 public:
  Construct(const Args& a, int rank, int size) : a_(a), rank_(rank), ring_(test_ring(size)) {}
  std::int64_t attempt(const std::function<void()>& arm) override {
    arm();
    redist::mpi::Redistribution r(MPI_COMM_WORLD, ring_.loads[rank_], ring_.targets[rank_],
                                  costs_of(rank_), options_of(a_, redist::mpi::Mode::ring));
    std::vector<std::int64_t> v = block(r.local().start, r.local().load, ring_.total);
    r.execute(v);
    return wrong_items(v, r.local().final_start, r.local().target, ring_.total);
  }

 private:
  const Args& a_;
  int rank_;
  Ring ring_;
};

// Executes one Redistribution, built beforehand, in every attempt.
class Execute final : public Step {
 public:
  Execute(const Args& a, int rank, int size)
      : a_(a),
        ring_(test_ring(size)),
        r_(MPI_COMM_WORLD, ring_.loads[rank], ring_.targets[rank], costs_of(rank),
           options_of(a, redist::mpi::Mode::ring)) {}
  std::int64_t attempt(const std::function<void()>& arm) override {
    const redist::mpi::LocalPlan& lp = r_.local();
    std::vector<std::int64_t> v = block(lp.start, lp.load, ring_.total), out;
    arm();
    if (a_.out_of_place) {
      r_.execute(v, out);
      return wrong_items(out, lp.final_start, lp.target, ring_.total) +
             wrong_items(v, lp.start, lp.load, ring_.total);  // `in` stays untouched
    }
    r_.execute(v);
    return wrong_items(v, lp.final_start, lp.target, ring_.total);
  }

 private:
  const Args& a_;
  Ring ring_;
  redist::mpi::Redistribution r_;
};

class Calibrate final : public Step {
 public:
  std::int64_t attempt(const std::function<void()>& arm) override {
    arm();
    const redist::mpi::LinkCosts c = redist::mpi::calibrate_link_costs(MPI_COMM_WORLD, 8, 16, 2);
    return c.next > 0 && c.prev > 0 ? 0 : 1;
  }
};

// A baseline (alltoallv or linear) on a Redistribution in linear mode, built beforehand.
class Baseline final : public Step {
 public:
  Baseline(const Args& a, int rank, int size)
      : a_(a),
        ring_(test_ring(size)),
        r_(MPI_COMM_WORLD, ring_.loads[rank], ring_.targets[rank], costs_of(rank),
           options_of(a, redist::mpi::Mode::linear)) {}
  std::int64_t attempt(const std::function<void()>& arm) override {
    const redist::mpi::LocalPlan& lp = r_.local();
    std::vector<std::int64_t> v = block(lp.start, lp.load, ring_.total);
    v.resize(static_cast<std::size_t>(std::max(lp.load, lp.target)));
    arm();
    if (a_.step == "alltoallv") {
      redist::mpi::alltoallv_execute(MPI_COMM_WORLD, r_, v.data(), sizeof(std::int64_t));
    } else {
      redist::mpi::lau_linear_execute(MPI_COMM_WORLD, r_, v.data(), sizeof(std::int64_t));
    }
    v.resize(static_cast<std::size_t>(lp.target));
    return wrong_items(v, lp.final_start, lp.target, ring_.total);
  }

 private:
  const Args& a_;
  Ring ring_;
  redist::mpi::Redistribution r_;
};

// A Rebalancer that rebalances at every decision; each attempt reports an iteration and decides.
class Rebalance final : public Step {
 public:
  Rebalance(const Args& a, int rank, int size)
      : rank_(rank),
        ring_(test_ring(size)),
        rb_(MPI_COMM_WORLD, ring_.loads[rank], costs_of(rank), "every:1", 4,
            options_of(a, redist::mpi::Mode::ring)) {}
  std::int64_t attempt(const std::function<void()>& arm) override {
    // The block as the Rebalancer's layout says (a failed attempt leaves it unchanged).
    std::vector<std::int64_t> v = block(rb_.global_start(), rb_.count(), ring_.total);
    // Speeds that change with the attempt, so that every decision moves items.
    rb_.record(static_cast<double>(rb_.count()),
               static_cast<double>(rb_.count()) / (1.0 + (rank_ + attempts_++) % 3));
    arm();
    rb_.maybe_rebalance(v);
    return wrong_items(v, rb_.global_start(), rb_.count(), ring_.total);
  }

 private:
  int rank_;
  int attempts_ = 0;
  Ring ring_;
  redist::mpi::Rebalancer rb_;
};

std::unique_ptr<Step> make_step(const Args& a, int rank, int size) {
  if (a.step == "construct") return std::make_unique<Construct>(a, rank, size);
  if (a.step == "execute") return std::make_unique<Execute>(a, rank, size);
  if (a.step == "calibrate") return std::make_unique<Calibrate>();
  if (a.step == "rebalance") return std::make_unique<Rebalance>(a, rank, size);
  return std::make_unique<Baseline>(a, rank, size);
}

// What one rank saw of the attempt with the failure.
struct Failure {
  bool caught = false;
  std::string message;
};

Failure attempt_with_failure(Step& step, const Args& a, int rank) {
  Failure seen;
  try {
    step.attempt([&] {
      if (rank == a.rank) redist::mpi::testing::inject_failure(a.call, a.nth);
    });
  } catch (const redist::mpi::Error& e) {
    seen = {true, e.what()};
  }
  redist::mpi::testing::clear_failure();
  return seen;
}

std::int64_t sum_over_ranks(std::int64_t value) {
  check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  return value;
}

// The ranks whose text differs from rank 0's.
std::int64_t differing_from_root(const std::string& text) {
  std::int64_t length = static_cast<std::int64_t>(text.size());
  check(MPI_Bcast(&length, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string root = text;
  root.resize(static_cast<std::size_t>(length));
  check(MPI_Bcast(root.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return sum_over_ranks(root != text ? 1 : 0);
}

struct Report {
  std::int64_t missed = 0, differing = 0, injected = 0, wrong_after = 0;
  bool names_call = false;
  std::string message;
};

int run(const Args& a, int rank, int size) {
  const std::unique_ptr<Step> step = make_step(a, rank, size);
  const Failure seen = attempt_with_failure(*step, a, rank);
  Report r;
  r.message = seen.message;
  r.missed = sum_over_ranks(seen.caught ? 0 : 1);
  r.differing = differing_from_root(seen.message);
  r.injected = sum_over_ranks(redist::mpi::testing::injected_failures());
  r.names_call =
      seen.message.find(fmt::format("{} failed on rank {}", a.call, a.rank)) != std::string::npos;
  if (a.print_error) {
    if (!seen.caught) return 1;
    const std::string line = "error: " + redist::one_line(seen.message, 600) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);  // one write: lines of ranks never mix
    return 2;
  }
  r.wrong_after = sum_over_ranks(step->attempt([] {}));
  const bool verified =
      r.missed == 0 && r.differing == 0 && r.injected == 1 && r.names_call && r.wrong_after == 0;
  if (rank == 0) {
    std::cout << fmt::format(
                     "{{\"step\": \"{}\", \"call\": \"{}\", \"rank\": {}, \"error\": \"{}\", "
                     "\"ranks_without_error\": {}, \"ranks_with_other_message\": {}, "
                     "\"injected\": {}, \"wrong_items_after\": {}, \"verified\": {}}}",
                     a.step, a.call, a.rank, redist::one_line(r.message, 300), r.missed,
                     r.differing, r.injected, r.wrong_after, verified)
              << std::endl;
  }
  return verified ? 0 : 1;
}

// CALL:RANK[:NTH]
void parse_failure(Args& a, const std::string& spec) {
  const std::size_t c1 = spec.find(':');
  if (c1 == std::string::npos) throw std::invalid_argument("--fail wants CALL:RANK[:NTH]");
  const std::size_t c2 = spec.find(':', c1 + 1);
  a.call = spec.substr(0, c1);
  a.rank = std::stoi(spec.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1));
  if (c2 != std::string::npos) a.nth = std::stoll(spec.substr(c2 + 1));
}

Args parse_args(int argc, char** argv) {
  Args a;
  std::string fail;
  CLI::App app{"mpi-errors-test: a failed MPI call reaches every rank as the same Error"};
  app.add_option("--step", a.step)
      ->check(
          CLI::IsMember({"construct", "execute", "calibrate", "alltoallv", "linear", "rebalance"}));
  app.add_option("--fail", fail, "CALL:RANK[:NTH]")->required();
  app.add_option("--segment-items", a.segment_items)->check(CLI::Range(1, 1 << 20));
  app.add_flag("--one-port", a.one_port);
  app.add_flag("--out-of-place", a.out_of_place);
  app.add_flag("--print-error", a.print_error);
  app.parse(argc, argv);
  parse_failure(a, fail);
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 3;
  int rank = 0, size = 1, code = 1;
  try {
    check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    code = run(parse_args(argc, argv), rank, size);
  } catch (const std::exception& e) {
    // Not the library's collective error: end the job rather than let other ranks wait.
    std::cerr << "error: mpi-errors-test: rank " << rank << ": " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  if (MPI_Finalize() != MPI_SUCCESS && code == 0) code = 3;
  return code;
}
