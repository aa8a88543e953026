// block_cyclic_exchange: move a block-cyclic distributed array from CYCLIC(r) on P ranks to
// CYCLIC(s) on Q ranks (the ScaLAPACK redistribution problem), planned by redist::exchange and
// executed by redist::mpi::Exchange, then check every element.
//
//   mpirun -np 4 example-block-cyclic-exchange                    N=1000, CYCLIC(4) on 3 ->
//                                                                 CYCLIC(5) on 4, plan `auto`
//   mpirun -np 4 example-block-cyclic-exchange N r P s Q [ALGORITHM]
//
// The array holds N int64 elements whose value is their global index. Element e is on rank
// floor(e / r) mod P before and floor(e / s) mod Q after (P, Q <= the ranks started); a rank
// stores its elements in global order. Every rank builds the same instance
// (exchange::block_cyclic, 8 bytes per element, bandwidth 1 GB/s on every port) and the same plan
// (exchange::plan), packs the elements it sends to each rank in global order, and the Exchange
// moves them; elements that stay are copied locally. Each rank then unpacks its received
// elements into its CYCLIC(s) storage and checks every value; rank 0 prints the summary. Exit
// status: 0 when every element is where it belongs, 1 otherwise, 2 on any error (arguments are
// read strictly and agreed on by every rank first: a bad or rank-dependent argument gives every
// rank the same `error:` line). N is at most kMaxElements (10^8 elements, 800 MB in all, held twice
// while they move), refused before any work.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "redist/common/parse.hpp"
#include "redist/exchange.hpp"
#include "redist/mpi.hpp"
#include "redist/mpi/command_line.hpp"

namespace {

namespace ex = redist::exchange;

// Owner and local index of element e under CYCLIC(block) on `procs` ranks.
struct Cyclic {
  std::int64_t block, procs;
  std::int64_t owner(std::int64_t e) const { return (e / block) % procs; }
  std::int64_t local(std::int64_t e) const { return (e / block / procs) * block + e % block; }
};

struct Layout {
  std::int64_t n;
  Cyclic from, to;
};

// The most elements of the array: 800 MB of int64, held twice while they move.
constexpr std::int64_t kMaxElements = 100'000'000;

// The positive integer argv[k] (`what` names it in the error), read strictly.
std::int64_t positive(const char* text, const char* what) {
  const auto parsed = redist::parse_integer<std::int64_t>(text);
  if (const auto* value = std::get_if<std::int64_t>(&parsed); value != nullptr && *value >= 1) {
    return *value;
  }
  throw std::runtime_error(std::string("'") + text + "' is not an integer >= 1 (at " + what + ")");
}

Layout read_layout(int argc, char** argv, int ranks) {
  Layout l{1000, {4, 3}, {5, 4}};
  if (argc != 1 && argc != 6 && argc != 7) {
    throw std::runtime_error("usage: example-block-cyclic-exchange [N r P s Q [ALGORITHM]]");
  }
  if (argc >= 6) {
    l = {positive(argv[1], "N"),
         {positive(argv[2], "r"), positive(argv[3], "P")},
         {positive(argv[4], "s"), positive(argv[5], "Q")}};
  }
  if (l.n > kMaxElements) {
    throw std::runtime_error("'" + std::to_string(l.n) + "' elements are more than the " +
                             std::to_string(kMaxElements) + " this example holds (at N)");
  }
  if (l.from.procs > ranks || l.to.procs > ranks) {
    throw std::runtime_error("P and Q must be at most the " + std::to_string(ranks) + " ranks");
  }
  return l;
}

// This rank's elements sent to each rank, in global order, packed by destination rank.
std::vector<std::int64_t> pack(const Layout& l, const redist::mpi::BufferLayout& send, int me) {
  std::vector<std::int64_t> buf(static_cast<std::size_t>(send.extent() / 8));
  std::vector<std::int64_t> at(send.displs.size());
  for (std::size_t j = 0; j < at.size(); ++j) at[j] = send.displs[j] / 8;
  for (std::int64_t e = 0; e < l.n; ++e) {
    if (l.from.owner(e) == me) buf[static_cast<std::size_t>(at[l.to.owner(e)]++)] = e;
  }
  return buf;
}

// Unpacks the received elements into CYCLIC(s) storage; returns the elements with a wrong value.
std::int64_t unpack_and_check(const Layout& l, const std::vector<std::int64_t>& recv,
                              const redist::mpi::BufferLayout& layout, int me, std::int64_t& held) {
  std::vector<std::int64_t> local;
  std::vector<std::int64_t> at(layout.displs.size());
  for (std::size_t j = 0; j < at.size(); ++j) at[j] = layout.displs[j] / 8;
  for (std::int64_t e = 0; e < l.n; ++e) {
    if (l.to.owner(e) != me) continue;
    const auto k = static_cast<std::size_t>(l.to.local(e));
    if (local.size() <= k) local.resize(k + 1, -1);
    local[k] = recv[static_cast<std::size_t>(at[l.from.owner(e)]++)];
  }
  std::int64_t wrong = 0;
  held = static_cast<std::int64_t>(local.size());
  for (std::int64_t e = 0; e < l.n; ++e) {
    if (l.to.owner(e) == me) wrong += local[static_cast<std::size_t>(l.to.local(e))] != e;
  }
  return wrong;
}

int run(int argc, char** argv) {
  int me = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Every rank parses; a rank that refuses its arguments, or arguments that differ between ranks
  // (an MPMD launch), give every rank the same error instead of leaving some waiting.
  Layout l{};
  redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "example-block-cyclic-exchange", argc, argv,
                                     [&] {
                                       l = read_layout(argc, argv, ranks);
                                       return true;
                                     });
  ex::Instance in = ex::block_cyclic({l.n, 8, l.from.block, l.from.procs, l.to.block, l.to.procs});
  in.send_bandwidth.assign(in.nodes, 1e9);
  in.recv_bandwidth.assign(in.nodes, 1e9);
  const ex::Plan plan = ex::plan(in, argc >= 7 ? argv[6] : "auto");
  redist::mpi::Exchange exchange(MPI_COMM_WORLD, in, plan);

  std::int64_t kept = 0;
  for (std::int64_t e = 0; e < l.n; ++e) kept += l.from.owner(e) == me && l.to.owner(e) == me;
  const redist::mpi::PackedLayouts layouts = redist::mpi::packed_layouts(in, me, ranks, 8 * kept);
  const std::vector<std::int64_t> send = pack(l, layouts.send, me);
  std::vector<std::int64_t> recv(static_cast<std::size_t>(layouts.recv.extent() / 8));
  exchange.execute(send.data(), layouts.send, recv.data(), layouts.recv);

  std::int64_t held = 0;
  const std::int64_t wrong = unpack_and_check(l, recv, layouts.recv, me, held);
  std::int64_t words[3] = {static_cast<std::int64_t>(send.size()), held, wrong};
  std::vector<std::int64_t> all(3 * static_cast<std::size_t>(ranks));
  MPI_Gather(words, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
  std::int64_t total_wrong = 0;
  for (int r = 0; r < ranks; ++r) total_wrong += all[3 * static_cast<std::size_t>(r) + 2];
  if (me == 0) {
    std::int64_t moved = 0;
    for (const ex::Message& m : in.messages) moved += m.bytes;
    std::printf("%lld elements: CYCLIC(%lld) on %lld ranks -> CYCLIC(%lld) on %lld ranks\n",
                static_cast<long long>(l.n), static_cast<long long>(l.from.block),
                static_cast<long long>(l.from.procs), static_cast<long long>(l.to.block),
                static_cast<long long>(l.to.procs));
    std::printf("messages: %zu, bytes moved: %lld\n", in.messages.size(),
                static_cast<long long>(moved));
    std::printf("plan: %s, %zu pieces, model makespan %.3f us (bound %.3f us)\n",
                plan.algorithm.c_str(), plan.pieces.size(), plan.makespan * 1e6,
                plan.lower_bound.value_or(0.0) * 1e6);
    std::printf("rank  before  after  check\n");
    for (int r = 0; r < ranks; ++r) {
      const std::size_t k = 3 * static_cast<std::size_t>(r);
      std::printf("%4d  %6lld  %5lld  %s\n", r, static_cast<long long>(all[k]),
                  static_cast<long long>(all[k + 1]), all[k + 2] == 0 ? "ok" : "WRONG");
    }
    std::printf("%s\n", total_wrong == 0 ? "every element in place" : "elements misplaced");
  }
  return total_wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 1;
  try {
    rc = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
