// Agreeing on the command line before any rank can fail alone (docs/mpi.md, "Errors").
//
// An MPI program whose ranks get different arguments (an MPMD launch `mpirun -np 2 prog A : -np 1
// prog B`, a wrapper script passing rank-dependent options) must not let one rank print its error
// and leave while the others wait forever in their next collective. `agree_on_command_line` runs
// the program's own parsing on every rank, then one agreement over `comm`:
// - when the parsing failed on some rank (it threw), every rank throws Error with the message of
//   the lowest such rank, verbatim;
// - else, when the ranks' arguments differ (a 64-bit digest of argv[1..argc-1]), every rank throws
//   Error("<program>: the ranks were started with different arguments (...); every rank must get
//   the same options");
// - else every rank returns what `parse` returned (whether the program goes on, e.g. false after
//   --help).
// A rank whose parsing fails still takes part in the agreement, so no rank is left waiting.
// Cost: one MPI_Allreduce of three 64-bit words, and one MPI_Bcast of the message on failure.
#pragma once

#include <mpi.h>

#include <functional>
#include <string_view>

namespace redist::mpi {

bool agree_on_command_line(MPI_Comm comm, std::string_view program, int argc,
                           const char* const* argv, const std::function<bool()>& parse);

}  // namespace redist::mpi
