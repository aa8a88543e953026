// libredist-pmpi.so: MPI_Alltoallv and MPI_Alltoall through redist's drop-in (redist/mpi/dropin.h),
// for programs that were not written for it: `mpirun -x LD_PRELOAD=libredist-pmpi.so prog`, or
// linked before the MPI library. The MPI profiling interface lets this library define the MPI_
// names and reach the MPI library's own calls as PMPI_. Nothing else is interposed. Calls the
// drop-in makes itself (its fallbacks) go straight to PMPI_. Settings: the drop-in's environment
// variables; REDIST_REPORT is written at MPI_Finalize (docs/dropin.md).
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "redist/mpi/dropin_engine.hpp"

namespace {

using redist::mpi::dropin::Call;
using redist::mpi::dropin::Native;

// Counts and displacements of `p` ranks, widened; a null array as counts of -1 (refused).
std::vector<std::int64_t> widen(const int* values, int p) {
  if (values == nullptr) return std::vector<std::int64_t>(static_cast<std::size_t>(p), -1);
  return std::vector<std::int64_t>(values, values + p);
}

int ranks_of(MPI_Comm comm) {
  int p = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &p) != MPI_SUCCESS) return -1;
  return p;
}

}  // namespace

extern "C" int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const Native native = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  const int p = ranks_of(comm);
  if (redist::mpi::dropin::inside() || p < 0) return native();
  try {
    const std::vector<std::int64_t> sc = widen(sendcounts, p), sd = widen(sdispls, p),
                                    rc = widen(recvcounts, p), rd = widen(rdispls, p);
    Call call{sendbuf, sc, sd, sendtype, recvbuf, rc, rd, recvtype, comm};
    return redist::mpi::dropin::alltoallv(call, native);
  } catch (...) {
    return native();
  }
}

extern "C" int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const Native native = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  const int p = ranks_of(comm);
  if (redist::mpi::dropin::inside() || p < 0) return native();
  try {
    std::vector<std::int64_t> sc(static_cast<std::size_t>(p), sendcount), sd(sc.size()),
        rc(sc.size(), recvcount), rd(sc.size());
    for (std::size_t j = 0; j < sc.size(); ++j) {
      sd[j] = static_cast<std::int64_t>(j) * sendcount;
      rd[j] = static_cast<std::int64_t>(j) * recvcount;
    }
    Call call{sendbuf, sc, sd, sendtype, recvbuf, rc, rd, recvtype, comm};
    return redist::mpi::dropin::alltoallv(call, native);
  } catch (...) {
    return native();
  }
}
