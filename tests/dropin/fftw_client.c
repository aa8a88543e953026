/* fftw_client: FFTW's MPI interface as an unmodified client of MPI_Alltoallv and MPI_Alltoall
 * (docs/dropin-tests.md).
 *
 * Distributed 2-D complex DFTs (fftw_mpi_plan_dft_2d, out of place, FFTW_DESTROY_INPUT) whose
 * transposes are done by FFTW's "mpi-transpose-alltoall" solver, which calls MPI_Alltoallv when the
 * blocks of the ranks are unequal (sizes not divisible by the number of ranks) and MPI_Alltoall
 * when they are equal. The program uses FFTW's public API; MPI serves to start, to agree on a plan
 * and to collect what is printed. Two modes:
 *
 *   fftw_client wisdom FILE   plans with FFTW_MEASURE, over a few sizes and attempts, until the
 *                             planner picks the alltoall transpose for the forward and the backward
 *                             plan, first for a problem of unequal blocks (neither size divisible
 *                             by the number of ranks), then for one of equal blocks; writes that
 *                             wisdom to FILE and prints one line "size N0xN1" per problem.
 *   fftw_client run FILE REPS N0xN1...
 *                             imports FILE and plans each problem with FFTW_WISDOM_ONLY (the very
 *                             plans of the wisdom run, whatever the timings of this run), then runs
 *                             REPS forward and backward transforms of deterministic input and
 *                             prints, on rank 0, the transposes in use and an FNV-1a hash of the
 *                             bytes of every double of every result, gathered from all ranks.
 *
 * The lines of "run" depend only on the bits of the results and on the plans: two runs with the
 * same wisdom print the same lines when MPI_Alltoall(v) moved the same bytes. Exit status: 0; 1 on
 * a usage error; 2 when no plan with the alltoall transpose could be made or imported; 3 when
 * backward(forward(x)) / n is not x. */
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

static void fill(fftw_complex* a, ptrdiff_t n1, ptrdiff_t local_n0, ptrdiff_t start0, int rep) {
  for (ptrdiff_t i = 0; i < local_n0; ++i)
    for (ptrdiff_t j = 0; j < n1; ++j) {
      uint64_t k = ((uint64_t)(start0 + i) << 32) ^ ((uint64_t)j << 8) ^ (uint64_t)rep;
      a[i * n1 + j][0] = unit(mix(2 * k));
      a[i * n1 + j][1] = unit(mix(2 * k + 1));
    }
}

static uint64_t fnv1a(uint64_t h, const void* data, size_t bytes) {
  const unsigned char* p = data;
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

static int count(const char* s, const char* word) {
  int n = 0;
  for (const char* p = strstr(s, word); p; p = strstr(p + 1, word)) ++n;
  return n;
}

static struct transposes transposes_of(fftw_plan p) {
  struct transposes t = {0, 0, 0, 0};
  char* s = fftw_sprint_plan(p);
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

/* One line: the transposes of the plan, and the MPI call that the alltoall ones make. */
static void describe(const char* problem, const char* direction, fftw_plan p) {
  struct transposes t = transposes_of(p);
  const char* calls = t.alltoall_equal == t.alltoall ? "MPI_Alltoall"
                      : t.alltoall_equal == 0        ? "MPI_Alltoallv"
                                                     : "MPI_Alltoall and MPI_Alltoallv";
  if (rank == 0)
    printf(
        "fftw_client: %s: %s plan: mpi-transpose-alltoall %d (equal blocks %d: %s), "
        "pairwise %d, recurse %d\n",
        problem, direction, t.alltoall, t.alltoall_equal, calls, t.pairwise, t.recurse);
}

/* Plans n0 x n1 forward and backward with FFTW_MEASURE; true when every transpose of both plans
 * is mpi-transpose-alltoall, on every rank. */
static int try_plans(ptrdiff_t n0, ptrdiff_t n1) {
  ptrdiff_t local_n0, start0;
  ptrdiff_t alloc = fftw_mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, &local_n0, &start0);
  /* The buffers as in run_problem(): wisdom depends on their alignment, and on in-place or not. */
  fftw_complex *in = fftw_alloc_complex(alloc), *out = fftw_alloc_complex(alloc);
  fftw_complex* back = fftw_alloc_complex(alloc);
  fftw_plan forward = fftw_mpi_plan_dft_2d(n0, n1, in, out, MPI_COMM_WORLD, FFTW_FORWARD, FLAGS);
  fftw_plan backward =
      fftw_mpi_plan_dft_2d(n0, n1, out, back, MPI_COMM_WORLD, FFTW_BACKWARD, FLAGS);
  int found = alltoall_only(forward, backward);
  if (forward) fftw_destroy_plan(forward);
  if (backward) fftw_destroy_plan(backward);
  fftw_free(in);
  fftw_free(out);
  fftw_free(back);
  return found;
}

/* Tries the sizes in turn, `rounds` times over, each time from the wisdom `kept` alone (what was
 * found for the problems before), until the planner picks the alltoall transpose. Returns the
 * index of the size found, or -1. The timings decide the planner's choice, hence the retries. */
static int search(const char* what, const ptrdiff_t (*sizes)[2], int nsizes, int rounds,
                  const char* kept) {
  for (int attempt = 0; attempt < rounds * nsizes; ++attempt) {
    int k = attempt % nsizes;
    fftw_forget_wisdom();
    if (kept) fftw_import_wisdom_from_string(kept);
    int found = try_plans(sizes[k][0], sizes[k][1]);
    if (rank == 0)
      fprintf(stderr, "fftw_client: %s, attempt %d, %tdx%td: %s\n", what, attempt + 1, sizes[k][0],
              sizes[k][1], found ? "alltoall transposes" : "other transposes");
    if (found) return k;
  }
  if (rank == 0)
    fprintf(stderr,
            "fftw_client: %s: the planner never chose mpi-transpose-alltoall in %d "
            "attempts\n",
            what, rounds * nsizes);
  return -1;
}

/* Wisdom for two problems: one of unequal blocks (neither size divisible by the number of ranks:
 * MPI_Alltoallv), one of equal blocks (both divisible: MPI_Alltoall). */
static int make_wisdom(const char* file) {
  static const ptrdiff_t candidates[][2] = {
      {100, 60}, {98, 70}, {130, 200}, {200, 130}, {999, 700}};
  ptrdiff_t unequal[5][2];
  int nunequal = 0;
  for (int k = 0; k < 5; ++k)
    if (candidates[k][0] % nranks != 0 && candidates[k][1] % nranks != 0) {
      unequal[nunequal][0] = candidates[k][0];
      unequal[nunequal][1] = candidates[k][1];
      ++nunequal;
    }
  const ptrdiff_t equal[][2] = {
      {33 * nranks, 21 * nranks}, {32 * nranks, 20 * nranks}, {40 * nranks, 24 * nranks}};
  if (nunequal == 0) {
    if (rank == 0) fprintf(stderr, "fftw_client: no size of unequal blocks on %d ranks\n", nranks);
    return 2;
  }
  /* 12 rounds: on a loaded machine the planner's timings favour the pairwise transposes more
   * often; each attempt is a small plan. */
  int u =
      search("unequal blocks (MPI_Alltoallv)", (const ptrdiff_t(*)[2])unequal, nunequal, 12, NULL);
  if (u < 0) return 2;
  char* kept = fftw_export_wisdom_to_string(); /* each rank keeps its own */
  int e = search("equal blocks (MPI_Alltoall)", equal, 3, 12, kept);
  free(kept);
  if (e < 0) return 2;
  fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
  int written = 1;
  if (rank == 0) written = fftw_export_wisdom_to_filename(file);
  MPI_Bcast(&written, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!written) {
    if (rank == 0) fprintf(stderr, "fftw_client: cannot write %s\n", file);
    return 2;
  }
  if (rank == 0)
    printf("size %tdx%td\nsize %tdx%td\n", unequal[u][0], unequal[u][1], equal[e][0], equal[e][1]);
  return 0;
}

/* The transforms of one problem, from the wisdom imported: the lines of run(), for n0 x n1. */
static int run_problem(ptrdiff_t n0, ptrdiff_t n1, int reps) {
  ptrdiff_t local_n0, start0;
  ptrdiff_t alloc = fftw_mpi_local_size_2d(n0, n1, MPI_COMM_WORLD, &local_n0, &start0);
  fftw_complex *in = fftw_alloc_complex(alloc), *out = fftw_alloc_complex(alloc);
  fftw_complex* back = fftw_alloc_complex(alloc);
  fftw_plan forward =
      fftw_mpi_plan_dft_2d(n0, n1, in, out, MPI_COMM_WORLD, FFTW_FORWARD, FLAGS | FFTW_WISDOM_ONLY);
  fftw_plan backward = fftw_mpi_plan_dft_2d(n0, n1, out, back, MPI_COMM_WORLD, FFTW_BACKWARD,
                                            FLAGS | FFTW_WISDOM_ONLY);
  if (!alltoall_only(forward, backward)) {
    if (rank == 0)
      fprintf(stderr,
              "fftw_client: the wisdom gives no plan with the alltoall transpose for "
              "%tdx%td on %d ranks\n",
              n0, n1, nranks);
    return 2;
  }
  char name[64];
  snprintf(name, sizeof name, "%tdx%td", n0, n1);
  if (rank == 0)
    printf("fftw_client: %s: complex doubles, %d ranks, %d forward and backward transforms\n", name,
           nranks, reps);
  describe(name, "forward", forward);
  describe(name, "backward", backward);

  /* Rank 0 gathers every result whole (rows in rank order: the global row-major array). */
  int *counts = malloc(sizeof(int) * (size_t)nranks),
      *displs = malloc(sizeof(int) * (size_t)nranks);
  int mine = (int)(local_n0 * n1 * 2);
  MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0, d = 0; r < nranks; d += counts[r], ++r) displs[r] = d;
  size_t bytes = sizeof(double) * (size_t)(n0 * n1 * 2);
  double* whole = rank == 0 ? malloc(bytes) : NULL;

  uint64_t h_forward = 0xcbf29ce484222325ULL, h_backward = h_forward;
  double max_error = 0;
  for (int rep = 0; rep < reps; ++rep) {
    fill(in, n1, local_n0, start0, rep);
    fftw_execute(forward); /* destroys in */
    MPI_Gatherv(out, mine, MPI_DOUBLE, whole, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      h_forward = fnv1a(h_forward, whole, bytes);
      if (rep == 0)
        for (ptrdiff_t k = 0; k < 3; ++k) {
          ptrdiff_t at = (k * (n0 * n1 / 3) + k * 7) * 2; /* a few spread-out elements */
          uint64_t re, im;
          memcpy(&re, &whole[at], 8);
          memcpy(&im, &whole[at + 1], 8);
          printf("fftw_client: %s: forward[%td][%td] = (%.17g, %.17g) bits %016llx %016llx\n", name,
                 at / 2 / n1, at / 2 % n1, whole[at], whole[at + 1], (unsigned long long)re,
                 (unsigned long long)im);
        }
    }
    fftw_execute(backward); /* destroys out */
    MPI_Gatherv(back, mine, MPI_DOUBLE, whole, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) h_backward = fnv1a(h_backward, whole, bytes);
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
  }
  int status = 0;
  if (rank == 0) {
    printf("fftw_client: %s: fnv1a64 of all forward results %016llx\n", name,
           (unsigned long long)h_forward);
    printf("fftw_client: %s: fnv1a64 of all backward results %016llx\n", name,
           (unsigned long long)h_backward);
    printf("fftw_client: %s: round trip max error %.3e\n", name, max_error);
    if (!(max_error < 1e-9)) {
      fprintf(stderr, "fftw_client: %s: backward(forward(x)) / n differs from x by %g\n", name,
              max_error);
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

static int run(const char* file, int reps, int nproblems, char** problems) {
  int imported = 1;
  if (rank == 0) imported = fftw_import_wisdom_from_filename(file);
  MPI_Bcast(&imported, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!imported) {
    if (rank == 0) fprintf(stderr, "fftw_client: cannot import wisdom from %s\n", file);
    return 2;
  }
  fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);
  for (int k = 0; k < nproblems; ++k) {
    long n0 = 0, n1 = 0;
    char end = 0;
    if (sscanf(problems[k], "%ldx%ld%c", &n0, &n1, &end) != 2 || n0 <= 0 || n1 <= 0 ||
        n0 * n1 >= (1L << 27)) {
      if (rank == 0) fprintf(stderr, "fftw_client: bad size %s (want N0xN1)\n", problems[k]);
      return 1;
    }
    int status = run_problem(n0, n1, reps);
    if (status != 0) return status;
  }
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int status = 1;
  if (argc == 3 && strcmp(argv[1], "wisdom") == 0) {
    status = make_wisdom(argv[2]);
  } else if (argc >= 5 && strcmp(argv[1], "run") == 0) {
    long reps = atol(argv[3]);
    if (reps > 0 && reps < 1000)
      status = run(argv[2], (int)reps, argc - 4, argv + 4);
    else if (rank == 0)
      fprintf(stderr, "fftw_client: bad number of repetitions %s\n", argv[3]);
  } else if (rank == 0) {
    fprintf(stderr, "usage: fftw_client wisdom FILE | fftw_client run FILE REPS N0xN1...\n");
  }
  fftw_mpi_cleanup();
  MPI_Finalize();
  return status;
}
