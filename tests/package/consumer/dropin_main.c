/* A C program outside redist that calls the drop-in (redist/mpi/dropin.h) instead of
 * MPI_Alltoallv and MPI_Alltoall, compiled with the C compiler and the flags of
 * `pkg-config redist-mpi` (tests/package/). Run under mpirun: each rank sends every rank a block
 * of its own length and contents, placed in reverse rank order in its buffer so that the
 * displacements matter, three times (the drop-in decides at the first call and reuses the
 * decision after), then checks that it received exactly what each rank sent. Rank 0 prints
 * "ok: ..." when every rank received everything; every rank exits 1 otherwise. With an argument,
 * the drop-in's report is written to that file (redist_dropin_report), which tells what ran. */
#include <stdio.h>
#include <stdlib.h>

#include "redist/mpi/dropin.h"

/* Items rank `from` sends to rank `to`: 1 to 3, different between pairs. */
static int items(int from, int to) { return 1 + (from + 2 * to) % 3; }

/* The k-th item rank `from` sends to rank `to`. */
static int value(int from, int to, int k) { return from * 1000000 + to * 1000 + k; }

int main(int argc, char** argv) {
  int rank = 0, size = 0, bad = 0, any_bad = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int *sendcounts = malloc(sizeof(int) * size), *sdispls = malloc(sizeof(int) * size);
  int *recvcounts = malloc(sizeof(int) * size), *rdispls = malloc(sizeof(int) * size);
  int send_total = 0, recv_total = 0;
  for (int j = size - 1; j >= 0; --j) { /* blocks in reverse rank order */
    sendcounts[j] = items(rank, j);
    sdispls[j] = send_total;
    send_total += sendcounts[j];
  }
  for (int i = 0; i < size; ++i) {
    recvcounts[i] = items(i, rank);
    rdispls[i] = recv_total;
    recv_total += recvcounts[i];
  }
  int *sendbuf = malloc(sizeof(int) * send_total), *recvbuf = malloc(sizeof(int) * recv_total);
  for (int j = 0; j < size; ++j) {
    for (int k = 0; k < sendcounts[j]; ++k) sendbuf[sdispls[j] + k] = value(rank, j, k);
  }

  for (int call = 0; call < 3; ++call) {
    for (int x = 0; x < recv_total; ++x) recvbuf[x] = -1;
    if (redist_alltoallv(sendbuf, sendcounts, sdispls, MPI_INT, recvbuf, recvcounts, rdispls,
                         MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) {
      bad = 1;
    }
    for (int i = 0; i < size; ++i) {
      for (int k = 0; k < recvcounts[i]; ++k) {
        if (recvbuf[rdispls[i] + k] != value(i, rank, k)) bad = 1;
      }
    }
  }

  /* redist_alltoall: two items to and from every rank. */
  int *all_send = malloc(sizeof(int) * 2 * size), *all_recv = malloc(sizeof(int) * 2 * size);
  for (int j = 0; j < size; ++j) {
    for (int k = 0; k < 2; ++k) {
      all_send[2 * j + k] = value(rank, j, k);
      all_recv[2 * j + k] = -1;
    }
  }
  if (redist_alltoall(all_send, 2, MPI_INT, all_recv, 2, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) {
    bad = 1;
  }
  for (int i = 0; i < size; ++i) {
    for (int k = 0; k < 2; ++k) {
      if (all_recv[2 * i + k] != value(i, rank, k)) bad = 1;
    }
  }

  if (argc > 1 && redist_dropin_report(argv[1]) != MPI_SUCCESS) bad = 1;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (rank == 0) {
    if (any_bad) {
      printf("FAIL: a rank did not receive what the others sent\n");
    } else {
      printf("ok: redist_alltoallv and redist_alltoall from C on %d ranks\n", size);
    }
  }
  free(sendcounts);
  free(sdispls);
  free(recvcounts);
  free(rdispls);
  free(sendbuf);
  free(recvbuf);
  free(all_send);
  free(all_recv);
  MPI_Finalize();
  return any_bad ? 1 : 0;
}
