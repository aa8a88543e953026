// mpi_vector: redistribute the blocks of a global std::vector<int> over MPI ranks, from uneven
// counts to even ones (or to given counts), and check that no item was lost or reordered.
//
//   mpirun -np 4 example-mpi-vector              even counts at the end
//   mpirun -np 4 example-mpi-vector 2 9 9 15     the counts each rank should end with
//
// The global vector holds the integers 0..N-1. Rank r starts with a contiguous block of it,
// (r * 11 + 18) mod 19 items (18, 10, 2, 13 on 4 ranks), blocks in rank order. A
// redist::mpi::Redistribution, built once by every rank (it is collective), plans on rank 0 the
// optimal redistribution of the ranks seen as a bidirectional ring and moves the items with
// point-to-point messages along that plan.
//
// The ring plan may send items over the link from the last rank to rank 0, which rotates the
// global sequence: rank 0's new block then starts at global index -rotation (mod N), and each
// rank's block is still a contiguous, ordered piece of the sequence (read mod N). (Options::mode =
// Mode::linear keeps rank 0 at index 0, at the price of a possibly longer schedule.)
//
// Every rank checks its own items; rank 0 gathers the counts and verdicts and prints them, so the
// output does not depend on the order in which ranks write. Exit status: 0 when every rank holds
// exactly the expected items, 1 otherwise, 2 on any error (the same `error:` line on every rank;
// target counts are read strictly and agreed on by every rank first).
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "redist/common/parse.hpp"
#include "redist/mpi.hpp"
#include "redist/mpi/command_line.hpp"

namespace {

// The uneven starting counts: any deterministic formula would do.
std::int64_t initial_count(int rank) { return (rank * 11 + 18) % 19; }

// The counts each rank ends with: the command line's, or N / P each, the first N mod P ranks
// holding one more. Every rank computes the same vector.
std::vector<std::int64_t> target_counts(int argc, char** argv, int ranks, std::int64_t total) {
  std::vector<std::int64_t> targets;
  if (argc > 1) {
    if (argc - 1 != ranks) {
      throw std::runtime_error("give one target count per rank (" + std::to_string(ranks) + ")");
    }
    for (int i = 1; i < argc; ++i) {
      const auto parsed = redist::parse_integer<std::int64_t>(argv[i]);
      const auto* count = std::get_if<std::int64_t>(&parsed);
      if (count == nullptr || *count < 0) {
        throw std::runtime_error(std::string("'") + argv[i] + "' is not a count >= 0 (at target " +
                                 std::to_string(i - 1) + ")");
      }
      targets.push_back(*count);
    }
    return targets;
  }
  for (int r = 0; r < ranks; ++r) targets.push_back(total / ranks + (r < total % ranks ? 1 : 0));
  return targets;
}

// "first..last" for `count` consecutive global indices from `first`, read mod `total`: a block
// that wraps past the end of the sequence is shown as two ranges.
std::string index_range(long long first, long long count, std::int64_t total) {
  if (count <= 0) return "-";
  const long long last = (first + count - 1) % total;
  if (last >= first) return std::to_string(first) + ".." + std::to_string(last);
  return std::to_string(first) + ".." + std::to_string(total - 1) + ", 0.." + std::to_string(last);
}

// Where this rank's block starts in the global vector, from every rank's count.
std::int64_t global_start(const std::vector<std::int64_t>& counts, int rank) {
  std::int64_t start = 0;
  for (int r = 0; r < rank; ++r) start += counts[static_cast<std::size_t>(r)];
  return start;
}

// Whether the new block holds the global indices first, first + 1, ... (mod N), where first is
// the sum of the new counts of the ranks before this one, shifted by the rotation.
bool holds_its_items(const std::vector<int>& block, const std::vector<std::int64_t>& after,
                     int rank, std::int64_t rotation, std::int64_t total) {
  std::int64_t first = global_start(after, rank) - rotation;
  first = total > 0 ? ((first % total) + total) % total : 0;
  bool intact = static_cast<std::int64_t>(block.size()) == after[static_cast<std::size_t>(rank)];
  for (std::size_t k = 0; intact && k < block.size(); ++k) {
    intact = block[k] == static_cast<int>((first + static_cast<std::int64_t>(k)) % total);
  }
  return intact;
}

// Gathers what each rank holds now and its verdict on rank 0, which prints everything.
void report(const redist::mpi::Redistribution& redistribution,
            const std::vector<std::int64_t>& before, const std::vector<int>& block, bool intact,
            int rank, int ranks, std::int64_t total) {
  const long long mine[3] = {static_cast<long long>(block.size()),
                             block.empty() ? -1LL : static_cast<long long>(block.front()),
                             intact ? 1LL : 0LL};
  std::vector<long long> all(3 * static_cast<std::size_t>(ranks));
  MPI_Gather(mine, 3, MPI_LONG_LONG, all.data(), 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  bool all_intact = true;
  std::printf("%d ranks, %lld items (global indices 0..%lld)\n", ranks,
              static_cast<long long>(total), static_cast<long long>(total - 1));
  std::printf("rank  before  after  check  global indices held after\n");
  for (int r = 0; r < ranks; ++r) {
    const long long* got = &all[3 * static_cast<std::size_t>(r)];
    all_intact = all_intact && got[2] == 1;
    std::printf("%4d %7lld %6lld  %-5s  %s\n", r,
                static_cast<long long>(before[static_cast<std::size_t>(r)]), got[0],
                got[2] ? "ok" : "WRONG", index_range(got[1], got[0], total).c_str());
  }
  std::printf("ring planner:   %s\n", redistribution.plan().algorithm.c_str());
  std::printf("model makespan: %.3f\n", redistribution.model_makespan());
  std::printf("rotation:       %lld\n", static_cast<long long>(redistribution.rotation()));
  std::printf("%s\n", all_intact ? "data intact" : "DATA NOT INTACT");
}

// Plans and moves this rank's block, checks it and reports; the status every rank returns.
int run(int argc, char** argv, int rank, int ranks) {
  // Every rank knows every count, so each can tell where its block starts in the global vector.
  std::vector<std::int64_t> before(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) before[static_cast<std::size_t>(r)] = initial_count(r);
  const std::int64_t total = global_start(before, ranks);
  const std::int64_t start = global_start(before, rank);
  // Every rank reads the command line; a rank that refuses it, or ranks started with different
  // arguments (an MPMD launch), give every rank the same error instead of leaving some waiting.
  std::vector<std::int64_t> after;
  redist::mpi::agree_on_command_line(MPI_COMM_WORLD, "example-mpi-vector", argc, argv, [&] {
    after = target_counts(argc, argv, ranks, total);
    return true;
  });

  // This rank's block of the global vector: the global indices start, start + 1, ...
  std::vector<int> block(static_cast<std::size_t>(before[static_cast<std::size_t>(rank)]));
  for (std::size_t k = 0; k < block.size(); ++k) block[k] = static_cast<int>(start) + int(k);

  // Link costs (time per item) to the next and to the previous rank: made up here, they make
  // the ring heterogeneous. calibrate_link_costs(MPI_COMM_WORLD, sizeof(int)) measures them.
  const redist::mpi::LinkCosts costs{1.0 + 0.5 * (rank % 3), 2.0 - 0.25 * (rank % 4)};

  // Plan (collective; rank 0 plans, everyone receives the plan), then move the items. Every
  // error (a count that does not add up, a bad cost) is thrown on every rank with the same
  // message before any item moves.
  redist::mpi::Redistribution redistribution(MPI_COMM_WORLD, before[static_cast<std::size_t>(rank)],
                                             after[static_cast<std::size_t>(rank)], costs);
  redistribution.execute(block);  // in place; block now holds this rank's new items

  const bool intact = holds_its_items(block, after, rank, redistribution.rotation(), total);
  report(redistribution, before, block, intact, rank, ranks, total);
  // Every rank returns the same status.
  int ok = intact ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    status = run(argc, argv, rank, ranks);
  } catch (const std::exception& e) {
    // Every error is collective (the command line agreed on first, the Redistribution's own):
    // every rank prints the same line.
    std::fprintf(stderr, "error: %s\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
