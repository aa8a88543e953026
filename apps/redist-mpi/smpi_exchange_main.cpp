// redist-smpi-exchange: one timed exchange under SimGrid SMPI (smpirun loads this shared object;
// apps/redist-mpi/smpi_exchange.py writes the platforms and runs it, docs/exchange.md,
// "Execution on MPI").
//
//   smpirun ... redist-smpi-exchange --instance I.json --strategy
//   redist|alltoallv|caterpillar|posted
//               [--algorithm NAME] [--repeat K]
//
// Every rank reads the exchange instance (its bandwidths must be the platform's), and for
// `redist` plans it with --algorithm (every rank the same plan) and builds a
// redist::mpi::Exchange. Send buffers hold the byte pattern (from, to, offset), messages packed by
// peer (mpi::packed_layouts). Each of K repetitions starts after an MPI_Barrier and is timed on
// every rank with MPI_Wtime; its time is the largest over the ranks, and the run reports the
// smallest over the repetitions. Every received byte is checked after every repetition. Rank 0
// prints one JSON line: strategy, algorithm, measured_seconds, model_makespan and lower_bound of
// the plan (0 for the baselines), pieces, verified. Exit 0 when verified, 1 if not, 2 on bad
// input (`error: ...` on every rank).
#include <mpi.h>
// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; this program
// never calls exit() (it returns from main).
#ifdef exit
#undef exit
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "redist/exchange.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/json.hpp"
#include "redist/mpi/exchange.hpp"

namespace {

namespace ex = redist::exchange;
namespace rm = redist::mpi;

struct Args {
  std::string instance, strategy = "redist", algorithm = "auto";
  int repeat = 1;
};

std::byte pattern(std::int64_t from, std::int64_t to, std::int64_t offset) {
  return static_cast<std::byte>((from * 131 + to * 31 + offset * 7 + offset / 253) & 0xff);
}

struct Buffers {
  rm::PackedLayouts layouts;
  std::vector<std::byte> send, recv;
};

Buffers make_buffers(const ex::Instance& in, int me, int ranks) {
  Buffers b{rm::packed_layouts(in, me, ranks), {}, {}};
  b.send.resize(static_cast<std::size_t>(b.layouts.send.extent()));
  b.recv.resize(static_cast<std::size_t>(b.layouts.recv.extent()));
  for (int j = 0; j < ranks; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < b.layouts.send.counts[u]; ++k) {
      b.send[static_cast<std::size_t>(b.layouts.send.displs[u] + k)] = pattern(me, j, k);
    }
  }
  return b;
}

bool verify_and_clear(Buffers& b, int me, int ranks) {
  bool ok = true;
  for (int j = 0; j < ranks; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < b.layouts.recv.counts[u]; ++k) {
      std::byte& got = b.recv[static_cast<std::size_t>(b.layouts.recv.displs[u] + k)];
      ok = ok && got == pattern(j, me, k);
      got = std::byte{0};
    }
  }
  return ok;
}

int run(const Args& a, int me, int ranks) {
  const ex::Instance in = redist::io::read_exchange_instance(redist::io::read_document(a.instance));
  std::optional<ex::Plan> plan;
  std::optional<rm::Exchange> exchange;
  if (a.strategy == "redist") {
    plan = ex::plan(in, a.algorithm);
    exchange.emplace(MPI_COMM_WORLD, in, *plan);
  }
  Buffers b = make_buffers(in, me, ranks);
  double best = 0.0;
  int verified = 1;
  for (int k = 0; k < a.repeat; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (exchange) {
      exchange->execute(b.send.data(), b.layouts.send, b.recv.data(), b.layouts.recv);
    } else if (a.strategy == "alltoallv") {
      rm::alltoallv_exchange(MPI_COMM_WORLD, b.send.data(), b.layouts.send, b.recv.data(),
                             b.layouts.recv);
    } else if (a.strategy == "posted") {
      rm::posted_exchange(MPI_COMM_WORLD, b.send.data(), b.layouts.send, b.recv.data(),
                          b.layouts.recv);
    } else {
      rm::caterpillar_exchange(MPI_COMM_WORLD, b.send.data(), b.layouts.send, b.recv.data(),
                               b.layouts.recv);
    }
    double took = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &took, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = k == 0 ? took : std::min(best, took);
    verified = verified && verify_and_clear(b, me, ranks);
  }
  MPI_Allreduce(MPI_IN_PLACE, &verified, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (me == 0) {
    std::printf(
        "{\"strategy\": \"%s\", \"algorithm\": \"%s\", \"measured_seconds\": %.9g, "
        "\"model_makespan\": %.9g, \"lower_bound\": %.9g, \"pieces\": %zu, \"verified\": %s}\n",
        a.strategy.c_str(), plan ? plan->algorithm.c_str() : "", best, plan ? plan->makespan : 0.0,
        plan ? plan->lower_bound.value_or(0.0) : ex::bounds(in).lower_bound,
        plan ? plan->pieces.size() : 0, verified ? "true" : "false");
  }
  return verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  CLI::App app{"redist-smpi-exchange: one timed exchange under SMPI"};
  Args a;
  app.add_option("--instance", a.instance, "exchange instance JSON")->required();
  app.add_option("--strategy", a.strategy, "redist, alltoallv, caterpillar or posted")
      ->check(CLI::IsMember({"redist", "alltoallv", "caterpillar", "posted"}));
  app.add_option("--algorithm", a.algorithm, "exchange planner (redist)");
  app.add_option("--repeat", a.repeat, "timed repetitions")->check(CLI::Range(1, 100));
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = run(a, me, ranks);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
