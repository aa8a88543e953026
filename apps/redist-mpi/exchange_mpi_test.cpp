// exchange-mpi-test: redist::mpi::Exchange and its baselines under mpirun (mpi/exchange.hpp).
//
//   mpirun -np P exchange-mpi-test --seed S [--instances K] [--bytes-max B] [--fault KIND:RANK]
//          [--fail CALL:RANK[:NTH]]
//
// For K random instances on 2..P nodes (testing/random_exchange.hpp; the same on every rank
// from the seed; some with latency, some with a backbone), every algorithm of
// exchange::kAlgorithms that applies plans them, and the plan is executed: send buffers hold the
// byte pattern(from, to, offset), receive buffers start with a sentinel, and every byte of every
// message must arrive at its offset, the gaps between messages untouched. Layouts alternate
// between packed_layouts and one with messages in reverse peer order and gaps. The baselines
// (MPI_Alltoallv, caterpillar) move the same buffers and are checked alike. Rank 0 prints one
// JSON line {"verified": true, ...}; exit 0 when all holds, 1 if not.
// --fault KIND:RANK makes RANK pass a wrong argument and the run must end with a collective
// refusal: every rank prints the same `error: ...` line on stderr, exit 2 (mpi_run_test.sh's
// error mode). KIND: plan (a piece of the plan starts later on RANK only), count (a send count
// one byte short), invalid (every rank drops a piece of the plan: not every byte delivered).
// --fail CALL:RANK[:NTH]: RANK's NTH library call of CALL fails (fault_injection_test.hpp) in the
// first execute: every rank must catch the same Error naming it, and the next execute on the
// same object must deliver everything. --backbone: on an instance with a backbone.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/exchange.hpp"
#include "redist/mpi/exchange.hpp"
#include "redist/mpi/fault_injection_test.hpp"
#include "redist/testing/random_exchange.hpp"

namespace {

namespace ex = redist::exchange;
namespace rm = redist::mpi;

struct Args {
  std::uint64_t seed = 1;
  int instances = 4;
  std::int64_t bytes_max = 5000;
  std::string fault, fail;
  bool backbone = false;  // --fail on an instance with a backbone (plan `whole`)
};

struct World {
  int rank = 0, size = 1;
};

std::byte pattern(std::int64_t from, std::int64_t to, std::int64_t offset) {
  std::uint64_t x = static_cast<std::uint64_t>(from) * 0x9e3779b97f4a7c15ULL ^
                    static_cast<std::uint64_t>(to) * 0xc2b2ae3d27d4eb4fULL ^
                    static_cast<std::uint64_t>(offset) * 0x165667b19e3779f9ULL;
  x ^= x >> 29;
  return static_cast<std::byte>(x & 0xff);
}

constexpr std::byte kSentinel{0xa5};

// Packed layouts, or (odd variants) messages in reverse peer order with a gap of 3 bytes before
// each: what the gaps hold must not change.
rm::PackedLayouts layouts(const ex::Instance& in, const World& w, int variant) {
  rm::PackedLayouts l = rm::packed_layouts(in, w.rank, w.size, 5);
  if (variant % 2 == 0) return l;
  for (rm::BufferLayout* b : {&l.send, &l.recv}) {
    std::int64_t at = 0;
    for (int j = w.size - 1; j >= 0; --j) {
      at += 3;
      b->displs[static_cast<std::size_t>(j)] = at;
      at += b->counts[static_cast<std::size_t>(j)];
    }
  }
  return l;
}

struct Buffers {
  std::vector<std::byte> send, recv;
};

Buffers fill(const rm::PackedLayouts& l, const World& w) {
  Buffers b{std::vector<std::byte>(static_cast<std::size_t>(l.send.extent() + 3), kSentinel),
            std::vector<std::byte>(static_cast<std::size_t>(l.recv.extent() + 3), kSentinel)};
  for (int j = 0; j < w.size; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < l.send.counts[u]; ++k) {
      b.send[static_cast<std::size_t>(l.send.displs[u] + k)] = pattern(w.rank, j, k);
    }
  }
  return b;
}

// Bytes of the receive buffer that are wrong: a message's byte not its pattern, a gap's not the
// sentinel.
std::int64_t wrong_bytes(const rm::PackedLayouts& l, const Buffers& b, const World& w) {
  std::vector<std::byte> want(b.recv.size(), kSentinel);
  for (int j = 0; j < w.size; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < l.recv.counts[u]; ++k) {
      want[static_cast<std::size_t>(l.recv.displs[u] + k)] = pattern(j, w.rank, k);
    }
  }
  std::int64_t wrong = 0;
  for (std::size_t k = 0; k < want.size(); ++k) wrong += want[k] != b.recv[k];
  return wrong;
}

// Instance k of the run (on every rank when `every_rank`, else on 2..P nodes).
ex::Instance random_instance(std::mt19937_64& rng, const Args& a, const World& w, int k,
                             bool every_rank = false) {
  redist::testkit::RandomExchangeOptions o;
  o.nodes_min = every_rank ? static_cast<std::size_t>(w.size) : 2;
  o.nodes_max = static_cast<std::size_t>(w.size);
  o.partners = 1 + static_cast<std::size_t>(k % 4);
  o.bytes_max = a.bytes_max;
  o.latency = k % 3 == 1 ? 1e-3 : 0.0;
  o.backbone = k % 4 == 3;
  return redist::testkit::random_exchange(rng, o);
}

// One strategy on one instance and layout: the wrong bytes on this rank.
std::int64_t run_one(const std::string& strategy, rm::Exchange* x, const ex::Instance& in,
                     const World& w, int variant) {
  const rm::PackedLayouts l = layouts(in, w, variant);
  Buffers b = fill(l, w);
  if (strategy == "alltoallv") {
    rm::alltoallv_exchange(MPI_COMM_WORLD, b.send.data(), l.send, b.recv.data(), l.recv);
  } else if (strategy == "caterpillar") {
    rm::caterpillar_exchange(MPI_COMM_WORLD, b.send.data(), l.send, b.recv.data(), l.recv);
  } else {
    x->execute(b.send.data(), l.send, b.recv.data(), l.recv);
  }
  return wrong_bytes(l, b, w);
}

struct Tally {
  std::int64_t runs = 0, wrong = 0, pieces = 0;
};

void run_instance(const ex::Instance& in, const World& w, int k, Tally& t) {
  for (const ex::AlgorithmName& algorithm : ex::kAlgorithms) {
    ex::Plan plan;
    try {
      plan = ex::plan(in, algorithm.name);
    } catch (const redist::OptionError&) {
      continue;  // does not apply to this instance (the same verdict on every rank)
    }
    rm::Exchange x(MPI_COMM_WORLD, in, plan);
    t.wrong += run_one("redist", &x, in, w, k);
    t.pieces += static_cast<std::int64_t>(plan.pieces.size());
    ++t.runs;
  }
  for (const char* baseline : {"alltoallv", "caterpillar"}) {
    t.wrong += run_one(baseline, nullptr, in, w, k + 1);
    ++t.runs;
  }
}

// A collective refusal provoked by one rank's wrong argument.
void provoke(const Args& a, const World& w) {
  const auto colon = a.fault.find(':');
  const std::string kind = a.fault.substr(0, colon);
  const int culprit = colon == std::string::npos ? 0 : std::stoi(a.fault.substr(colon + 1));
  std::mt19937_64 rng(a.seed);
  const ex::Instance in = random_instance(rng, a, w, 0, true);
  ex::Plan plan = ex::plan(in, "whole");
  if (kind == "plan" && w.rank == culprit) plan.pieces.back().start += 1.0;
  if (kind == "invalid") plan.pieces.pop_back();
  rm::Exchange x(MPI_COMM_WORLD, in, plan);
  rm::PackedLayouts l = layouts(in, w, 0);
  if (kind == "count" && w.rank == culprit) {
    for (std::int64_t& c : l.send.counts) c -= c > 0 && c != 5 ? 1 : 0;
  }
  Buffers b = fill(l, w);
  x.execute(b.send.data(), l.send, b.recv.data(), l.recv);
}

// --fail: the same Error on every rank, then a clean execute on the same object.
bool injected(const Args& a, const World& w, std::string& message) {
  const auto c1 = a.fail.find(':'), c2 = a.fail.find(':', c1 + 1);
  const std::string call = a.fail.substr(0, c1);
  const int culprit = std::stoi(a.fail.substr(c1 + 1, c2 - c1 - 1));
  const std::int64_t nth = c2 == std::string::npos ? 1 : std::stoll(a.fail.substr(c2 + 1));
  std::mt19937_64 rng(a.seed);
  // 3 partners, no latency; or 4 partners and a backbone (backbone tokens in flight).
  const ex::Instance in = random_instance(rng, a, w, a.backbone ? 3 : 2, true);
  const ex::Plan plan = ex::plan(in, a.backbone ? "whole" : "preemptive");
  rm::Exchange x(MPI_COMM_WORLD, in, plan);
  if (w.rank == culprit) rm::testing::inject_failure(call, nth);
  try {
    run_one("redist", &x, in, w, 0);
  } catch (const rm::Error& e) {
    message = e.what();
  }
  rm::testing::clear_failure();
  // Every rank's message must be rank 0's.
  std::vector<char> root(message.begin(), message.end());
  root.resize(1024, '\0');
  MPI_Bcast(root.data(), 1024, MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = message == std::string(root.data()) && !message.empty() &&
             message.find(fmt::format("{} failed on rank {}", call, culprit)) != std::string::npos;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const std::int64_t wrong = run_one("redist", &x, in, w, 1);
  std::int64_t all_wrong = 0;
  MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return same != 0 && all_wrong == 0;
}

int run(const Args& a, const World& w) {
  if (!a.fault.empty()) {
    provoke(a, w);
    return 1;  // not refused: the run fails
  }
  if (!a.fail.empty()) {
    std::string message;
    const bool ok = injected(a, w, message);
    if (w.rank == 0) {
      std::cout << fmt::format("{{\"verified\": {}, \"error\": \"{}\"}}\n", ok, message);
    }
    return ok ? 0 : 1;
  }
  std::mt19937_64 rng(a.seed);
  Tally t;
  for (int k = 0; k < a.instances; ++k) run_instance(random_instance(rng, a, w, k), w, k, t);
  std::int64_t wrong = 0;
  MPI_Allreduce(&t.wrong, &wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (w.rank == 0) {
    std::cout << fmt::format(
        "{{\"verified\": {}, \"ranks\": {}, \"runs\": {}, \"pieces\": {}, \"wrong_bytes\": {}}}\n",
        wrong == 0, w.size, t.runs, t.pieces, wrong);
  }
  return wrong == 0 ? 0 : 1;
}

// One write per line, so that the ranks' lines do not interleave.
int print_error(const std::string& what) {
  const std::string line = "error: " + what + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  CLI::App app{"exchange-mpi-test: redist::mpi::Exchange under mpirun"};
  Args a;
  app.add_option("--seed", a.seed, "seed of the random instances");
  app.add_option("--instances", a.instances, "random instances")->check(CLI::Range(1, 1000));
  app.add_option("--bytes-max", a.bytes_max, "largest message")->check(CLI::Range(1, 1 << 24));
  app.add_option("--fault", a.fault, "plan|count|invalid:RANK, a collective refusal");
  app.add_option("--fail", a.fail, "CALL:RANK[:NTH], an injected MPI failure");
  app.add_flag("--backbone", a.backbone, "--fail on an instance with a backbone");
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = run(a, w);
  } catch (const CLI::ParseError& e) {
    rc = print_error(e.what());
  } catch (const rm::Error& e) {
    rc = print_error(e.what());
  }
  MPI_Finalize();
  return rc;
}
