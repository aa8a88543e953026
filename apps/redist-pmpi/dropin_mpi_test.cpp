// dropin-mpi-test: redist_alltoallv and its siblings (redist/mpi/dropin.h) against the MPI
// library's own MPI_Alltoallv under mpirun, byte for byte.
//
//   mpirun -np P dropin-mpi-test [--seed S] [--rounds R] [--report FILE]
//
// Every case builds the same arguments for both calls (from the seed, the same on every rank),
// runs the MPI library's call and redist's into separate buffers that start with the same
// sentinel, and requires identical bytes everywhere, gaps included: random patterns (zero counts,
// empty ranks) repeated so that the cache serves them, named and derived datatypes (contiguous,
// strided vectors, structs with padding, resized types, different send and receive types with
// the same signature), MPI_IN_PLACE, MPI_Alltoall, the large-count variant, persistent requests,
// patterns called many times in a row and then changed (the cache's hits and misses in turn), a
// sub-communicator and an intercommunicator (which falls back). Then the errors, with
// MPI_ERRORS_RETURN: a negative count, a null buffer with data, an uncommitted datatype on one
// rank (every rank must return an error; the faulty rank its class), and counts that do not
// match between two ranks (every rank returns an error, MPI_ERR_TRUNCATE where MPI says so).
// Run under REDIST_ALLTOALLV=always, auto and never. Rank 0 prints one JSON line
// {"verified": true, ...}; exit 0 when everything held, 1 otherwise.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "redist/mpi/dropin.h"

namespace {

int rank = 0, size = 1;
int failures = 0;
int cases = 0;

void expect(bool ok, const std::string& what) {
  ++cases;
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
  }
}

// The bytes of element e of the block from rank `from` to rank `to`, byte k of the element.
unsigned char pattern(int from, int to, int e, int k) {
  return static_cast<unsigned char>((from * 131 + to * 31 + e * 7 + k * 3 + 1) & 0xff);
}

// A send buffer for `type`: block j at sdispls[j] elements of the type's extent, every byte of
// the buffer set, then the type's data bytes of each element written with pattern(...) through
// MPI_Unpack, so that a non-contiguous type's gaps hold other bytes.
struct Layout {
  std::vector<int> counts, displs;
  std::size_t extent_elements = 0;  // of the buffer
};

// Counts `counts[j]` laid out in reverse rank order, with gaps of 0..2 elements when `gaps`.
Layout layout_of(const std::vector<int>& counts, std::mt19937_64& rng, bool gaps) {
  Layout l;
  l.counts = counts;
  l.displs.assign(counts.size(), 0);
  int at = gaps ? 1 : 0;
  for (int j = size - 1; j >= 0; --j) {
    l.displs[static_cast<std::size_t>(j)] = at;
    at += counts[static_cast<std::size_t>(j)] + (gaps ? static_cast<int>(rng() % 3) : 0);
  }
  l.extent_elements = static_cast<std::size_t>(at) + 1;
  return l;
}

MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(t, &lb, &extent);
  return extent;
}

int size_of(MPI_Datatype t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return s;
}

// Fills block j's data bytes (elements of `type`) with the pattern of this rank sending to j.
void fill(std::vector<unsigned char>& buffer, const Layout& l, MPI_Datatype type) {
  const int bytes = size_of(type);
  const MPI_Aint extent = extent_of(type);
  for (int j = 0; j < size; ++j) {
    const int count = l.counts[static_cast<std::size_t>(j)];
    if (count == 0) continue;
    std::vector<unsigned char> packed(static_cast<std::size_t>(count) * bytes);
    for (int e = 0; e < count; ++e) {
      for (int k = 0; k < bytes; ++k) {
        packed[static_cast<std::size_t>(e * bytes + k)] = pattern(rank, j, e, k);
      }
    }
    int position = 0;
    MPI_Unpack(packed.data(), static_cast<int>(packed.size()), &position,
               buffer.data() + l.displs[static_cast<std::size_t>(j)] * extent, count, type,
               MPI_COMM_SELF);
  }
}

// The matching receive layout: what every rank sends this one, from the send layouts' counts
// (all ranks draw every rank's layout from the same seed).
struct Pattern {
  std::vector<Layout> send;  // per rank
  Layout recv;               // this rank's
};

// Every rank's counts from the seed (the same on every rank); one rank may send nothing; with
// `symmetric`, i sends j as many elements as j sends i (MPI_IN_PLACE needs it).
Pattern random_pattern(std::uint64_t seed, int max_count, bool symmetric = false) {
  std::mt19937_64 rng(seed);
  const auto n = static_cast<std::size_t>(size);
  std::vector<std::vector<int>> c(n, std::vector<int>(n, 0));
  const auto empty = static_cast<std::size_t>(rng() % (n + 1));  // may be none
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const int draw = static_cast<int>(rng() % static_cast<std::uint64_t>(max_count + 1));
      c[i][j] = i == empty ? 0 : draw;
    }
  }
  if (symmetric) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) c[i][j] = c[j][i];
    }
  }
  Pattern p;
  for (std::size_t i = 0; i < n; ++i) p.send.push_back(layout_of(c[i], rng, true));
  std::vector<int> from(n);
  for (std::size_t j = 0; j < n; ++j) from[j] = c[j][static_cast<std::size_t>(rank)];
  p.recv = layout_of(from, rng, true);
  return p;
}

using Alltoallv = int (*)(const void*, const int*, const int*, MPI_Datatype, void*, const int*,
                          const int*, MPI_Datatype, MPI_Comm);

// Runs MPI's call and redist's on the same arguments and compares every byte of the results.
void compare(const std::string& name, const Pattern& p, MPI_Datatype stype, MPI_Datatype rtype,
             MPI_Comm comm, bool in_place = false) {
  const Layout& s = p.send[static_cast<std::size_t>(rank)];
  std::vector<unsigned char> send(s.extent_elements * static_cast<std::size_t>(extent_of(stype)),
                                  0x5a);
  fill(send, s, stype);
  const std::size_t rbytes = p.recv.extent_elements * static_cast<std::size_t>(extent_of(rtype));
  std::vector<unsigned char> mine(rbytes, 0xa5), theirs(rbytes, 0xa5);
  if (in_place) {
    fill(mine, p.recv, rtype);
    theirs = mine;
  }
  const void* sbuf = in_place ? MPI_IN_PLACE : send.data();
  const int a = MPI_Alltoallv(sbuf, s.counts.data(), s.displs.data(), stype, theirs.data(),
                              p.recv.counts.data(), p.recv.displs.data(), rtype, comm);
  const int b = redist_alltoallv(sbuf, s.counts.data(), s.displs.data(), stype, mine.data(),
                                 p.recv.counts.data(), p.recv.displs.data(), rtype, comm);
  expect(a == MPI_SUCCESS && b == MPI_SUCCESS, name + ": return codes");
  expect(mine == theirs, name + ": bytes differ from MPI_Alltoallv's");
}

MPI_Datatype committed(MPI_Datatype t) {
  MPI_Type_commit(&t);
  return t;
}

void datatype_cases(std::uint64_t seed, int rounds) {
  MPI_Datatype vector = MPI_DATATYPE_NULL, triple = MPI_DATATYPE_NULL, pair = MPI_DATATYPE_NULL,
               resized = MPI_DATATYPE_NULL, quad = MPI_DATATYPE_NULL;
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vector);  // strided: not contiguous
  MPI_Type_contiguous(3, MPI_SHORT, &triple);     // contiguous
  const int blocks[2] = {1, 1};
  const MPI_Aint displs[2] = {0, 8};
  const MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Type_create_struct(2, blocks, displs, types, &pair);  // padding after the int
  MPI_Type_create_resized(MPI_INT, 0, 12, &resized);        // gaps between elements
  MPI_Type_contiguous(4, MPI_INT, &quad);
  vector = committed(vector), triple = committed(triple), pair = committed(pair);
  resized = committed(resized), quad = committed(quad);
  for (int r = 0; r < rounds; ++r) {
    const Pattern p = random_pattern(seed + static_cast<std::uint64_t>(r) % 2, 40);
    const Pattern sym = random_pattern(seed + 100 + static_cast<std::uint64_t>(r) % 2, 40, true);
    compare("MPI_INT", p, MPI_INT, MPI_INT, MPI_COMM_WORLD);
    compare("MPI_BYTE", p, MPI_BYTE, MPI_BYTE, MPI_COMM_WORLD);
    compare("vector", p, vector, vector, MPI_COMM_WORLD);
    compare("contiguous", p, triple, triple, MPI_COMM_WORLD);
    compare("struct", p, pair, pair, MPI_COMM_WORLD);
    compare("resized", p, resized, resized, MPI_COMM_WORLD);
    compare("in place", sym, MPI_INT, MPI_INT, MPI_COMM_WORLD, true);
    compare("in place, vector", sym, vector, vector, MPI_COMM_WORLD, true);
  }
  // Four ints sent as MPI_INT, received as one element of four ints.
  Pattern q = random_pattern(seed + 7, 10);
  for (auto& l : q.send) {
    for (int& c : l.counts) c *= 4;
    for (int& d : l.displs) d *= 4;
    l.extent_elements *= 4;
  }

  compare("ints to quads", q, MPI_INT, quad, MPI_COMM_WORLD);
  for (MPI_Datatype* t : {&vector, &triple, &pair, &resized, &quad}) MPI_Type_free(t);
}

void alltoall_cases() {
  for (int count : {0, 1, 5, 1000}) {
    std::vector<int> send(static_cast<std::size_t>(count * size)), a(send.size(), -1),
        b(send.size(), -1);
    for (std::size_t k = 0; k < send.size(); ++k) send[k] = rank * 100000 + static_cast<int>(k);
    const int x =
        MPI_Alltoall(send.data(), count, MPI_INT, a.data(), count, MPI_INT, MPI_COMM_WORLD);
    const int y =
        redist_alltoall(send.data(), count, MPI_INT, b.data(), count, MPI_INT, MPI_COMM_WORLD);
    const int z =
        redist_alltoall(send.data(), count, MPI_INT, b.data(), count, MPI_INT, MPI_COMM_WORLD);
    expect(x == MPI_SUCCESS && y == MPI_SUCCESS && z == MPI_SUCCESS && a == b,
           "redist_alltoall of " + std::to_string(count));
  }
}

void large_count_cases(std::uint64_t seed) {
  const Pattern p = random_pattern(seed + 11, 30);
  const Layout& s = p.send[static_cast<std::size_t>(rank)];
  std::vector<MPI_Count> sc(s.counts.begin(), s.counts.end()),
      rc(p.recv.counts.begin(), p.recv.counts.end());
  std::vector<MPI_Aint> sd(s.displs.begin(), s.displs.end()),
      rd(p.recv.displs.begin(), p.recv.displs.end());
  std::vector<unsigned char> send(s.extent_elements * 8, 0);
  fill(send, s, MPI_DOUBLE);
  std::vector<unsigned char> a(p.recv.extent_elements * 8, 1), b(a);
  MPI_Alltoallv(send.data(), s.counts.data(), s.displs.data(), MPI_DOUBLE, a.data(),
                p.recv.counts.data(), p.recv.displs.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  const int code = redist_alltoallv_c(send.data(), sc.data(), sd.data(), MPI_DOUBLE, b.data(),
                                      rc.data(), rd.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  expect(code == MPI_SUCCESS && a == b, "redist_alltoallv_c");
}

void persistent_cases(std::uint64_t seed) {
  const Pattern p = random_pattern(seed + 13, 50);
  const Layout& s = p.send[static_cast<std::size_t>(rank)];
  std::vector<unsigned char> send(s.extent_elements * 4, 0);
  fill(send, s, MPI_INT);
  std::vector<unsigned char> a(p.recv.extent_elements * 4, 3), b(a);
  MPI_Alltoallv(send.data(), s.counts.data(), s.displs.data(), MPI_INT, a.data(),
                p.recv.counts.data(), p.recv.displs.data(), MPI_INT, MPI_COMM_WORLD);
  MPI_Request request = MPI_REQUEST_NULL;
  int code = redist_alltoallv_init(send.data(), s.counts.data(), s.displs.data(), MPI_INT, b.data(),
                                   p.recv.counts.data(), p.recv.displs.data(), MPI_INT,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  expect(code == MPI_SUCCESS, "redist_alltoallv_init");
  for (int k = 0; k < 4; ++k) {
    std::fill(b.begin(), b.end(), 3);
    code = redist_start(&request);
    const int waited = redist_wait(&request, MPI_STATUS_IGNORE);
    expect(code == MPI_SUCCESS && waited == MPI_SUCCESS && a == b,
           "persistent start " + std::to_string(k));
  }
  expect(redist_request_free(&request) == MPI_SUCCESS && request == MPI_REQUEST_NULL,
         "redist_request_free");
}

// One pattern called many times, then another, then the first again, every call compared with
// MPI's: the calls around a change of pattern (a miss, then hits again) must stay right.
void repeated_cases(std::uint64_t seed) {
  const Pattern a = random_pattern(seed + 21, 30), b = random_pattern(seed + 22, 30);
  for (const auto& [pattern, calls] : {std::pair{&a, 40}, std::pair{&b, 20}, std::pair{&a, 10}}) {
    for (int k = 0; k < calls; ++k) {
      compare("repeated pattern", *pattern, MPI_INT, MPI_INT, MPI_COMM_WORLD);
    }
  }
}

void communicator_cases(std::uint64_t seed) {
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int hr = 0, hs = 0;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  std::vector<int> send(static_cast<std::size_t>(hs) * 3), a(send.size(), -1), b(send.size(), -2);
  for (std::size_t k = 0; k < send.size(); ++k) send[k] = hr * 1000 + static_cast<int>(k + seed);
  MPI_Alltoall(send.data(), 3, MPI_INT, a.data(), 3, MPI_INT, half);
  for (int k = 0; k < 2; ++k) {
    const int code = redist_alltoall(send.data(), 3, MPI_INT, b.data(), 3, MPI_INT, half);
    expect(code == MPI_SUCCESS && a == b, "sub-communicator");
  }
  if (size >= 2) {
    MPI_Comm inter = MPI_COMM_NULL;
    // Each half's leader is its largest world rank (the split's keys are -rank).
    const int other = rank % 2 == 0 ? 1 : 0;
    const int remote_leader = (size - 1) % 2 == other ? size - 1 : size - 2;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, remote_leader, 77, &inter);
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    std::vector<int> s2(static_cast<std::size_t>(remote), rank), r1(s2.size(), -1),
        r2(s2.size(), -2);
    MPI_Alltoall(s2.data(), 1, MPI_INT, r1.data(), 1, MPI_INT, inter);
    const int code = redist_alltoall(s2.data(), 1, MPI_INT, r2.data(), 1, MPI_INT, inter);
    expect(code == MPI_SUCCESS && r1 == r2, "intercommunicator (native)");
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&half);
}

// Every rank must return an error; `bad` the one that passes the faulty argument.
void expect_collective_error(const std::string& name, int code, int wanted_class, int bad) {
  int cls = MPI_SUCCESS;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &cls);
  expect(code != MPI_SUCCESS, name + ": no error returned");
  if (rank == bad) expect(cls == wanted_class, name + ": wrong error class " + std::to_string(cls));
}

void error_cases() {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int bad = size - 1;
  std::vector<int> counts(static_cast<std::size_t>(size), 2), displs(counts.size());
  for (int j = 0; j < size; ++j) displs[static_cast<std::size_t>(j)] = 2 * j;
  std::vector<int> send(counts.size() * 2, rank), recv(send.size(), -1);
  std::vector<int> negative = counts;
  if (rank == bad) negative[0] = -1;
  expect_collective_error(
      "negative count",
      redist_alltoallv(send.data(), negative.data(), displs.data(), MPI_INT, recv.data(),
                       counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD),
      MPI_ERR_COUNT, bad);
  expect_collective_error(
      "null buffer",
      redist_alltoallv(rank == bad ? nullptr : send.data(), counts.data(), displs.data(), MPI_INT,
                       recv.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD),
      MPI_ERR_BUFFER, bad);
  MPI_Datatype loose = MPI_DATATYPE_NULL;  // never committed
  MPI_Type_contiguous(1, MPI_INT, &loose);
  expect_collective_error(
      "uncommitted datatype",
      redist_alltoallv(send.data(), counts.data(), displs.data(), rank == bad ? loose : MPI_INT,
                       recv.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD),
      MPI_ERR_TYPE, bad);
  MPI_Type_free(&loose);
  // Rank `bad` sends rank 0 one int more than rank 0 expects: MPI's truncation error at rank 0.
  std::vector<int> more = counts, big(send.size() + 2, rank);
  if (rank == bad) more[0] = 3;
  const int code = redist_alltoallv(big.data(), more.data(), displs.data(), MPI_INT, recv.data(),
                                    counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
  expect_collective_error("mismatched counts", code, MPI_ERR_TRUNCATE, 0);
  // The communicator still works afterwards.
  std::fill(recv.begin(), recv.end(), -1);
  const int again =
      redist_alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(),
                       counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
  bool ok = again == MPI_SUCCESS;
  for (int j = 0; j < size; ++j) ok = ok && recv[static_cast<std::size_t>(2 * j)] == j;
  expect(ok, "a call after the errors");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::uint64_t seed = 1;
  int rounds = 3;
  const char* report = nullptr;
  bool errors = true;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--seed" && k + 1 < argc) seed = std::stoull(argv[++k]);
    if (a == "--rounds" && k + 1 < argc) rounds = std::stoi(argv[++k]);
    if (a == "--report" && k + 1 < argc) report = argv[++k];
    if (a == "--no-errors") errors = false;
  }
  datatype_cases(seed, rounds);
  alltoall_cases();
  large_count_cases(seed);
  persistent_cases(seed);
  repeated_cases(seed);
  communicator_cases(seed);
  if (errors) error_cases();
  if (report != nullptr) redist_dropin_report(report);
  int failed = 0;
  MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("{\"verified\": %s, \"ranks\": %d, \"cases\": %d, \"failures\": %d}\n",
                failed == 0 ? "true" : "false", size, cases, failed);
  }
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
