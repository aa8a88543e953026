// The MPI functions whose failure a test can inject (mpi_fault_injection.hpp), through MPI's
// profiling interface: each calls its PMPI_ twin.
#include "redist/testing/mpi_fault_injection.hpp"

#include <mpi.h>

#include <algorithm>
#include <utility>

namespace redist::mpi::testing {

namespace {

struct ArmedFailure {
  std::string name;            // empty: none armed
  std::int64_t remaining = 0;  // calls of `name` until the failing one
  std::int64_t injected = 0;
};

ArmedFailure& armed() {
  static ArmedFailure failure;
  return failure;
}

}  // namespace

void inject_failure(std::string name, std::int64_t occurrence) {
  armed().name = std::move(name);
  armed().remaining = std::max<std::int64_t>(occurrence, 1);
}

void clear_failure() { armed().name.clear(); }

std::int64_t injected_failures() { return armed().injected; }

// Whether this call of `name` is the armed one; disarms it when it is.
bool take_failure(const char* name) {
  ArmedFailure& f = armed();
  if (f.name.empty() || f.name != name || --f.remaining > 0) return false;
  f.name.clear();
  ++f.injected;
  return true;
}

// A call made first, then reported failed when it is the armed one.
int made(const char* name, int code) { return take_failure(name) ? MPI_ERR_OTHER : code; }

}  // namespace redist::mpi::testing

using redist::mpi::testing::made;
using redist::mpi::testing::take_failure;

extern "C" {

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  if (take_failure("MPI_Isend")) return MPI_ERR_OTHER;
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  if (take_failure("MPI_Irecv")) return MPI_ERR_OTHER;
  return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return made("MPI_Send", PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  return made("MPI_Recv", PMPI_Recv(buf, count, type, source, tag, comm, status));
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  return made("MPI_Sendrecv", PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                                            recvcount, recvtype, source, recvtag, comm, status));
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return made("MPI_Waitany", PMPI_Waitany(count, requests, index, status));
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  return made("MPI_Waitsome", PMPI_Waitsome(incount, requests, outcount, indices, statuses));
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return made("MPI_Bcast", PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return made("MPI_Allgather",
              PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return made("MPI_Alltoallv", PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm));
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  const int code = PMPI_Comm_dup(comm, newcomm);
  if (!take_failure("MPI_Comm_dup")) return code;
  if (code == MPI_SUCCESS) PMPI_Comm_free(newcomm);
  *newcomm = MPI_COMM_NULL;
  return MPI_ERR_OTHER;
}

}  // extern "C"
