#include "redist/mpi/command_line.hpp"

#include <climits>
#include <cstdint>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "redist/mpi/communicator.hpp"

namespace redist::mpi {
namespace {

// FNV-1a over the arguments, each followed by a NUL byte (so that "ab" "c" differs from "a" "bc").
std::uint64_t digest(int argc, const char* const* argv) {
  std::uint64_t h = 14695981039346656037ull;
  for (int k = 1; k < argc; ++k) {
    for (const char* c = argv[k];; ++c) {
      h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
      if (*c == '\0') break;
    }
  }
  return h;
}

void require(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    throw Error(fmt::format("redist::mpi: {} failed (code {}) while agreeing on the command line",
                            call, code));
  }
}

// The message of rank `root` on every rank. (agree() of communicator.hpp would prefix the message
// with its step and rank; a command-line error is printed as the program wrote it.)
std::string broadcast(MPI_Comm comm, int root, std::string message) {
  int size = static_cast<int>(std::min<std::size_t>(message.size(), 4096));
  require(MPI_Bcast(&size, 1, MPI_INT, root, comm), "MPI_Bcast");
  message.resize(static_cast<std::size_t>(size));
  require(MPI_Bcast(message.data(), size, MPI_CHAR, root, comm), "MPI_Bcast");
  return message;
}

}  // namespace

bool agree_on_command_line(MPI_Comm comm, std::string_view program, int argc,
                           const char* const* argv, const std::function<bool()>& parse) {
  int rank = 0, size = 1;
  require(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  require(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  bool go_on = false;
  std::string failure;
  try {
    go_on = parse();
  } catch (const std::exception& e) {
    failure = e.what();
    if (failure.empty()) failure = std::string(program) + ": the command line was refused";
  }
  // MPI_MAX of: the lowest failing rank as size - rank (0: none), the digest and its complement
  // (whose maximum is the complement of the smallest digest).
  const auto mine = static_cast<std::int64_t>(digest(argc, argv));
  std::int64_t words[3] = {failure.empty() ? 0 : size - rank, mine, ~mine};
  require(MPI_Allreduce(MPI_IN_PLACE, words, 3, MPI_INT64_T, MPI_MAX, comm), "MPI_Allreduce");
  if (words[0] != 0) throw Error(broadcast(comm, size - static_cast<int>(words[0]), failure));
  if (words[1] != mine || ~words[2] != mine) {
    throw Error(
        fmt::format("{}: the ranks were started with different arguments (an MPMD launch "
                    "or a wrapper passing rank-dependent options); every rank must get the "
                    "same options",
                    program));
  }
  return go_on;
}

}  // namespace redist::mpi
