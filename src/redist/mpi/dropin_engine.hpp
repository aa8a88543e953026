// The drop-in's engine (redist/mpi/dropin.h, docs/dropin.md): one call of MPI_Alltoallv's
// semantics, with counts and displacements as 64-bit integers, run as a cached plan of redist's or
// as the native call. The C functions of dropin.h and the profiling library are thin layers over
// it. Returns MPI error codes (errors go through the caller's communicator's error handler, as
// the native call's would); no exception leaves it.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <span>

namespace redist::mpi::dropin {

// One call's arguments, MPI_Alltoallv's, counts and displacements in elements of the datatypes.
// sendbuf == MPI_IN_PLACE: the data to send are taken from recvbuf (recvcounts, rdispls,
// recvtype); sendcounts, sdispls and sendtype are ignored.
struct Call {
  const void* sendbuf = nullptr;
  std::span<const std::int64_t> sendcounts, sdispls;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  std::span<const std::int64_t> recvcounts, rdispls;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
};

// The native call with the caller's own arguments (MPI_Alltoallv, PMPI_Alltoallv, ...); returns
// its error code. Empty when no native call can carry the arguments (counts beyond an int): then
// redist always plans.
using Native = std::function<int()>;

// Collective over call.comm: the exchange of MPI_Alltoallv. With REDIST_ALLTOALLV=never, exactly
// the native call.
int alltoallv(const Call& call, const Native& native);

// Whether this thread is inside the engine: the profiling library then forwards MPI_Alltoallv and
// MPI_Alltoall to the MPI library directly (the engine's own fallbacks call them).
bool inside();

// Writes the report of every pattern seen (rank 0 of MPI_COMM_WORLD only); MPI_SUCCESS or
// MPI_ERR_FILE. Local.
int write_report(const char* path);

}  // namespace redist::mpi::dropin
