// A C++ program outside redist that calls the drop-in through the one public header of the MPI
// component, redist/mpi.hpp, linked to redist::mpi from the installed package (tests/package/).
// Run under mpirun: each rank sends every rank a block of its own length and contents, three
// times, then checks that it received exactly what each rank sent. Rank 0 prints "ok: ..." when
// every rank received everything; every rank exits 1 otherwise.
#include <cstdio>
#include <vector>

#include "redist/mpi.hpp"

namespace {

// Items rank `from` sends to rank `to`: 1 to 4, different between pairs.
int items(int from, int to) { return 1 + (3 * from + to) % 4; }

// The k-th item rank `from` sends to rank `to`.
double value(int from, int to, int k) { return from * 1000.0 + to + k / 8.0; }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The rest of the component is declared by the same header: its references must link.
  auto* volatile calibrate = &redist::mpi::calibrate_platform;

  std::vector<int> sendcounts(size), sdispls(size), recvcounts(size), rdispls(size);
  int send_total = 0, recv_total = 0;
  for (int j = 0; j < size; ++j) {
    sendcounts[j] = items(rank, j);
    sdispls[j] = send_total;
    send_total += sendcounts[j];
    recvcounts[j] = items(j, rank);
    rdispls[j] = recv_total;
    recv_total += recvcounts[j];
  }
  std::vector<double> sendbuf(send_total), recvbuf(recv_total);
  for (int j = 0; j < size; ++j) {
    for (int k = 0; k < sendcounts[j]; ++k) sendbuf[sdispls[j] + k] = value(rank, j, k);
  }

  int bad = calibrate == nullptr ? 1 : 0;
  for (int call = 0; call < 3; ++call) {
    recvbuf.assign(recv_total, -1.0);
    if (redist_alltoallv(sendbuf.data(), sendcounts.data(), sdispls.data(), MPI_DOUBLE,
                         recvbuf.data(), recvcounts.data(), rdispls.data(), MPI_DOUBLE,
                         MPI_COMM_WORLD) != MPI_SUCCESS) {
      bad = 1;
    }
    for (int i = 0; i < size; ++i) {
      for (int k = 0; k < recvcounts[i]; ++k) {
        if (recvbuf[rdispls[i] + k] != value(i, rank, k)) bad = 1;
      }
    }
  }

  int any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (rank == 0) {
    if (any_bad != 0) {
      std::printf("FAIL: a rank did not receive what the others sent\n");
    } else {
      std::printf("ok: redist_alltoallv from C++ (redist/mpi.hpp) on %d ranks\n", size);
    }
  }
  MPI_Finalize();
  return any_bad != 0 ? 1 : 0;
}
