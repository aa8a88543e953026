/* example-alltoallv-transpose: an ordinary MPI program that knows nothing of redist. It
 * transposes a ROWS x COLS matrix of doubles whose rows are held in unequal blocks (rank r holds
 * a share of the rows that grows with r) into unequal blocks of columns, with one MPI_Alltoallv
 * per step, STEPS times, and checks every element. Run it as it is, or with redist's profiling
 * library preloaded (docs/dropin.md):
 *
 *   mpirun -np 4 build/examples/example-alltoallv-transpose
 *   mpirun -np 4 -x LD_PRELOAD=build/libredist-pmpi.so build/examples/example-alltoallv-transpose
 *
 * Both print the same lines: the library changes who sends what when, never what arrives. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROWS = 600, COLS = 400, STEPS = 20 };

/* First row (or column) of rank r when n are split among p ranks in shares 1, 2, ..., p. */
static int first(int n, int p, int r) {
  const long long total = (long long)p * (p + 1) / 2;
  return (int)((long long)n * r * (r + 1) / 2 / total);
}

static double value(int row, int col, int step) { return row * 1000.0 + col + step * 1e-3; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int r0 = first(ROWS, p, rank), r1 = first(ROWS, p, rank + 1);
  const int c0 = first(COLS, p, rank), c1 = first(COLS, p, rank + 1);
  /* Sent block j: my rows x j's columns, row-major; received block j: j's rows x my columns. */
  int *scounts = malloc(sizeof(int) * p), *sdispls = malloc(sizeof(int) * p);
  int *rcounts = malloc(sizeof(int) * p), *rdispls = malloc(sizeof(int) * p);
  int sat = 0, rat = 0;
  for (int j = 0; j < p; ++j) {
    scounts[j] = (r1 - r0) * (first(COLS, p, j + 1) - first(COLS, p, j));
    rcounts[j] = (first(ROWS, p, j + 1) - first(ROWS, p, j)) * (c1 - c0);
    sdispls[j] = sat, rdispls[j] = rat;
    sat += scounts[j], rat += rcounts[j];
  }
  double *send = malloc(sizeof(double) * (sat + 1)), *recv = malloc(sizeof(double) * (rat + 1));
  long long wrong = 0;
  for (int step = 0; step < STEPS; ++step) {
    for (int j = 0, at = 0; j < p; ++j) {
      for (int row = r0; row < r1; ++row) {
        for (int col = first(COLS, p, j); col < first(COLS, p, j + 1); ++col) {
          send[at++] = value(row, col, step);
        }
      }
    }
    MPI_Alltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts, rdispls, MPI_DOUBLE,
                  MPI_COMM_WORLD);
    for (int j = 0, at = 0; j < p; ++j) {
      for (int row = first(ROWS, p, j); row < first(ROWS, p, j + 1); ++row) {
        for (int col = c0; col < c1; ++col) wrong += recv[at++] != value(row, col, step);
      }
    }
  }
  long long all = 0;
  MPI_Reduce(&wrong, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("transposed %d x %d doubles on %d ranks, %d times\n", ROWS, COLS, p, STEPS);
    printf("rank 0 holds %d rows, rank %d holds %d\n", first(ROWS, p, 1), p - 1,
           ROWS - first(ROWS, p, p - 1));
    printf("elements out of place: %lld\n", all);
  }
  free(send), free(recv), free(scounts), free(sdispls), free(rcounts), free(rdispls);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
