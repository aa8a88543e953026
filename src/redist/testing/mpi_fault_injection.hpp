// For the tests only (an object library linked into the MPI test programs, never into redist's
// libraries): makes one MPI call fail on this process, to check that a failure reaches every rank
// as the same Error and that no rank hangs (redist/mpi/communicator.hpp).
//
// It works through MPI's profiling interface: the object library defines the MPI functions below,
// each of which calls its PMPI_ twin. While a failure is armed, the calls of the named function
// are counted (every caller's: arm it just before the library step under test and clear it after);
// the `occurrence`-th reports MPI_ERR_OTHER. A nonblocking start (MPI_Isend, MPI_Irecv) is then
// not made, as a start that fails leaves nothing in flight; any other call is made first, so that
// collectives still match on every rank (a duplicate communicator made by a failed MPI_Comm_dup is
// freed again and MPI_COMM_NULL returned). Functions that can fail this way: MPI_Allgather,
// MPI_Alltoallv, MPI_Bcast, MPI_Comm_dup, MPI_Irecv, MPI_Isend, MPI_Recv, MPI_Send,
// MPI_Sendrecv, MPI_Waitany, MPI_Waitsome.
#pragma once

#include <cstdint>
#include <string>

namespace redist::mpi::testing {

// Arms one failure: the `occurrence`-th call (counted from 1, from now on) of the MPI function
// `name` ("MPI_Isend") in this process reports MPI_ERR_OTHER. Arming again replaces the armed
// failure.
void inject_failure(std::string name, std::int64_t occurrence = 1);
// Disarms a failure that has not happened yet.
void clear_failure();
// The failures injected in this process so far.
std::int64_t injected_failures();

}  // namespace redist::mpi::testing
