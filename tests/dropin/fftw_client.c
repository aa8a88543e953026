/* fftw_client: FFTW's MPI interface as an unmodified client of MPI_Alltoallv (docs/dropin-tests.md).
 *
 * A distributed 2-D complex DFT (fftw_mpi_plan_dft_2d, out of place, FFTW_DESTROY_INPUT) whose
 * transposes are done by FFTW's "mpi-transpose-alltoall" solver, which calls MPI_Alltoallv when the
 * row blocks of the ranks are unequal (sizes not divisible by the number of ranks) and MPI_Alltoall
 * when they are equal. The program uses FFTW's public API only; MPI serves to start, to agree on a
 * plan and to collect what is printed. Two modes:
 *
 *   fftw_client wisdom FILE   plans with FFTW_MEASURE, over a few sizes and attempts, until the
 *                             planner picks the alltoall transpose for the forward and the backward
 *                             plan; writes that wisdom to FILE and prints "size N0xN1".
 *   fftw_client run FILE N0 N1 [REPS]
 *                             imports FILE and plans N0xN1 with FFTW_WISDOM_ONLY (the very plan
 *                             of the wisdom run, whatever the timings of this run), then runs REPS
 *                             (default 4) forward and backward transforms of deterministic input
 *                             and prints, on rank 0, the transposes in use and an FNV-1a hash of
 *                             the bytes of every double of every result, gathered from all ranks.
 *
 * The lines of "run" depend only on the bits of the results and on the plan: two runs with the same
 * wisdom print the same lines when MPI_Alltoall(v) moved the same bytes. Exit status: 0, 1 on a
 * usage error, 2 when no plan with the alltoall transpose could be made or imported. */
#include <fftw3-mpi.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS (FFTW_MEASURE | FFTW_DESTROY_INPUT)

static int rank, nranks;

/* splitmix64: the input is a function of the global index, not of the distribution. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static double unit(uint64_t h) { return (double)(h >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

static void fill(fftw_complex *a, ptrdiff_t n1, ptrdiff_t local_n0, ptrdiff_t start0, int rep) {
  for (ptrdiff_t i = 0; i < local_n0; ++i)
    for (ptrdiff_t j = 0; j < n1; ++j) {
      uint64_t k = ((uint64_t)(start0 + i) << 32) ^ ((uint64_t)j << 8) ^ (uint64_t)rep;
      a[i * n1 + j][0] = unit(mix(2 * k));
      a[i * n1 + j][1] = unit(mix(2 * k + 1));
    }
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t bytes) {
  const unsigned char *p = data;
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* Counts the transposes of each kind in a plan's description. */
struct transposes {
  int alltoall, alltoall_equal, pairwise, recurse;
};

static int count(const char *s, const char *word) {
  int n = 0;
  for (const char *p = strstr(s, word); p; p = strstr(p + 1, word)) ++n;
  return n;
}

static struct transposes transposes_of(fftw_plan p) {
  struct transposes t = {0, 0, 0, 0};
  char *s = fftw_sprint_plan(p);
  if (s) {
    t.alltoall = count(s, "(mpi-transpose-alltoall");
    t.alltoall_equal = count(s, "(mpi-transpose-alltoall/e");
    t.pairwise = count(s, "(mpi-transpose-pairwise");
    t.recurse = count(s, "(mpi-transpose-recurse");
    free(s);
  }
  return t;
}

/* True on every rank when both plans exist on every rank and use the alltoall transpose only. */
static int alltoall_only(fftw_plan forward, fftw_plan backward) {
  int ok = forward != NULL && backward != NULL;
  if (ok) {
    struct transposes f = transposes_of(forward), b = transposes_of(backward);
    ok = f.alltoall > 0 && b.alltoall > 0 && f.pairwise + f.recurse + b.pairwise + b.recurse == 0;
  }
  int all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

static void describe(const char *name, fftw_plan p) {
  struct transposes t = transposes_of(p);
  if (rank == 0)
    printf("fftw_client: %s plan: mpi-transpose-alltoall %d (equal blocks %d), pairwise %d, "
           "recurse %d\n",
           name, t.alltoall, t.alltoall_equal, t.pairwise, t.recurse);
}

static int make_wisdom(const char *file) {
  /* Sizes not divisible by 3 (unequal blocks: MPI_Alltoallv on 3 ranks). */
  static const ptrdiff_t sizes[][2] = {{100, 60}, {98, 70}, {130, 200}, {200, 130}, {999, 700}};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  const int attempts = 4 * nsizes;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    ptrdiff_t n0 = sizes[attempt % nsizes][0], n1 = sizes[attempt % nsizes][1];
    ptrdiff_t local_n0, start0;
    ptrdiff_t alloc = fftw_mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, &local_n0, &start0);
    /* The buffers as in run(): wisdom depends on their alignment and on in-place or not. */
    fftw_complex *in = fftw_alloc_complex(alloc), *out = fftw_alloc_complex(alloc);
    fftw_complex *back = fftw_alloc_complex(alloc);
    fftw_forget_wisdom();
    fftw_plan forward =
        fftw_mpi_plan_dft_2d(n0, n1, in, out, MPI_COMM_WORLD, FFTW_FORWARD, FLAGS);
    fftw_plan backward =
        fftw_mpi_plan_dft_2d(n0, n1, out, back, MPI_COMM_WORLD, FFTW_BACKWARD, FLAGS);
    int found = alltoall_only(forward, backward);
    if (forward) fftw_destroy_plan(forward);
    if (backward) fftw_destroy_plan(backward);
    fftw_free(in);
    fftw_free(out);
    fftw_free(back);
    if (rank == 0)
      fprintf(stderr, "fftw_client: attempt %d, %tdx%td: %s\n", attempt + 1, n0, n1,
              found ? "alltoall transposes" : "other transposes");
    if (found) {
      fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
      int written = 1;
      if (rank == 0) written = fftw_export_wisdom_to_filename(file);
      MPI_Bcast(&written, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (!written) {
        if (rank == 0) fprintf(stderr, "fftw_client: cannot write %s\n", file);
        return 2;
      }
      if (rank == 0) printf("size %tdx%td\n", n0, n1);
      return 0;
    }
  }
  if (rank == 0)
    fprintf(stderr, "fftw_client: the planner never chose mpi-transpose-alltoall in %d attempts\n",
            attempts);
  return 2;
}

static int run(const char *file, ptrdiff_t n0, ptrdiff_t n1, int reps) {
  int imported = 1;
  if (rank == 0) imported = fftw_import_wisdom_from_filename(file);
  MPI_Bcast(&imported, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!imported) {
    if (rank == 0) fprintf(stderr, "fftw_client: cannot import wisdom from %s\n", file);
    return 2;
  }
  fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);

  ptrdiff_t local_n0, start0;
  ptrdiff_t alloc = fftw_mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, &local_n0, &start0);
  fftw_complex *in = fftw_alloc_complex(alloc), *out = fftw_alloc_complex(alloc);
  fftw_complex *back = fftw_alloc_complex(alloc);
  fftw_plan forward = fftw_mpi_plan_dft_2d(n0, n1, in, out, MPI_COMM_WORLD, FFTW_FORWARD,
                                           FLAGS | FFTW_WISDOM_ONLY);
  fftw_plan backward = fftw_mpi_plan_dft_2d(n0, n1, out, back, MPI_COMM_WORLD, FFTW_BACKWARD,
                                            FLAGS | FFTW_WISDOM_ONLY);
  if (!alltoall_only(forward, backward)) {
    if (rank == 0)
      fprintf(stderr, "fftw_client: the wisdom of %s gives no plan with the alltoall transpose "
                      "for %tdx%td on %d ranks\n", file, n0, n1, nranks);
    return 2;
  }
  if (rank == 0)
    printf("fftw_client: %tdx%td complex doubles, %d ranks, %d forward and backward transforms\n",
           n0, n1, nranks, reps);
  describe("forward", forward);
  describe("backward", backward);

  /* Rank 0 gathers every result whole (rows in rank order: the global row-major array). */
  int *counts = malloc(sizeof(int) * (size_t)nranks), *displs = malloc(sizeof(int) * (size_t)nranks);
  int mine = (int)(local_n0 * n1 * 2);
  MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0, d = 0; r < nranks; d += counts[r], ++r) displs[r] = d;
  double *whole = rank == 0 ? malloc(sizeof(double) * (size_t)(n0 * n1 * 2)) : NULL;

  uint64_t h_forward = 0xcbf29ce484222325ULL, h_backward = h_forward;
  double max_error = 0;
  for (int rep = 0; rep < reps; ++rep) {
    fill(in, n1, local_n0, start0, rep);
    fftw_execute(forward); /* destroys in */
    MPI_Gatherv(out, mine, MPI_DOUBLE, whole, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      h_forward = fnv1a(h_forward, whole, sizeof(double) * (size_t)(n0 * n1 * 2));
      if (rep == 0)
        for (ptrdiff_t k = 0; k < 3; ++k) {
          ptrdiff_t at = (k * (n0 * n1 / 3) + k * 7) * 2; /* a few spread-out elements */
          uint64_t re, im;
          memcpy(&re, &whole[at], 8);
          memcpy(&im, &whole[at + 1], 8);
          printf("fftw_client: forward[%td][%td] = (%.17g, %.17g) bits %016llx %016llx\n",
                 at / 2 / n1, at / 2 % n1, whole[at], whole[at + 1], (unsigned long long)re,
                 (unsigned long long)im);
        }
    }
    fftw_execute(backward); /* destroys out */
    MPI_Gatherv(back, mine, MPI_DOUBLE, whole, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    fill(in, n1, local_n0, start0, rep); /* the input again, to check the round trip */
    double err = 0;
    for (ptrdiff_t k = 0; k < local_n0 * n1; ++k)
      for (int c = 0; c < 2; ++c) {
        double e = back[k][c] / (double)(n0 * n1) - in[k][c];
        if (e < 0) e = -e;
        if (e > err) err = e;
      }
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (err > max_error) max_error = err;
    if (rank == 0) h_backward = fnv1a(h_backward, whole, sizeof(double) * (size_t)(n0 * n1 * 2));
  }
  int status = 0;
  if (rank == 0) {
    printf("fftw_client: fnv1a64 of all forward results %016llx\n", (unsigned long long)h_forward);
    printf("fftw_client: fnv1a64 of all backward results %016llx\n",
           (unsigned long long)h_backward);
    printf("fftw_client: round trip max error %.3e\n", max_error);
    if (!(max_error < 1e-9)) {
      fprintf(stderr, "fftw_client: backward(forward(x)) / n differs from x by %g\n", max_error);
      status = 3;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(whole);
  free(counts);
  free(displs);
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(in);
  fftw_free(out);
  fftw_free(back);
  return status;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int status = 1;
  if (argc == 3 && strcmp(argv[1], "wisdom") == 0) {
    status = make_wisdom(argv[2]);
  } else if ((argc == 5 || argc == 6) && strcmp(argv[1], "run") == 0) {
    long n0 = atol(argv[3]), n1 = atol(argv[4]), reps = argc == 6 ? atol(argv[5]) : 4;
    if (n0 > 0 && n1 > 0 && reps > 0 && n0 * n1 < (1L << 27) && reps < 1000)
      status = run(argv[2], n0, n1, (int)reps);
    else if (rank == 0)
      fprintf(stderr, "fftw_client: bad sizes or repetitions\n");
  } else if (rank == 0) {
    fprintf(stderr, "usage: fftw_client wisdom FILE | fftw_client run FILE N0 N1 [REPS]\n");
  }
  fftw_mpi_cleanup();
  MPI_Finalize();
  return status;
}
