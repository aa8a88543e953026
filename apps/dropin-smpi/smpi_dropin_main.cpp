// redist-smpi-dropin: MPI_Alltoallv against its drop-in replacement redist_alltoallv
// (redist/mpi/dropin.h) under SimGrid SMPI (smpirun loads this shared object; smpi_dropin.py
// writes the platforms and patterns, runs it and tabulates, docs/dropin-smpi.md).
//
//   smpirun ... redist-smpi-dropin --patterns P.json [--calls N] [--alltoallv native|redist]
//                                  [--datatype byte|double] [--report FILE] [--lookup]
//
// P.json: {"dropin_patterns": {"ranks": p, "patterns": [{"name": "...", "bytes": M}, ...]}}
// where M[i][j] is the number of bytes rank i sends to rank j (M[i][i] is the rank's own block,
// copied locally by the call). Every rank reads the file and keeps its row (send counts) and its
// column (receive counts); blocks are packed by peer (displacements are prefix sums).
//
// Per pattern, in the file's order: after an MPI_Barrier, N calls back to back, each one
// MPI_Alltoallv (`native`) or redist_alltoallv (`redist`) with the same arguments; every rank
// reads MPI_Wtime after each call, and a call's end is the largest over the ranks. The send
// buffers alternate between two copies of different contents (call k sends copy k mod 2), so the
// received data of the last call differ from the previous call's; every received element of the
// last call is checked after the timing. Rank 0 prints one JSON line per pattern: pattern, ranks,
// alltoallv, datatype, calls, seconds (the end of the last call, from the barrier), call_seconds
// (each call's end minus the previous one's), bytes (per call, over all ranks, own blocks
// included), verified. Exit 0 when every pattern is verified, 1 if not, 2 on bad input (`error:
// ...` on every rank).
//
// `redist` is the drop-in (redist_alltoallv, the MPI layer compiled with SMPI's mpi.h). --report
// FILE (redist) writes the drop-in's report (redist_dropin_report) at the end.
// --lookup puts an MPI_Allreduce of 4 integers before each call: the synchronisation a replacement
// that looks its pattern up at every call adds to the native call it falls back to.
#include <mpi.h>
// Under SMPI (smpi_helpers.h) `exit` is a macro, which clashes with CLI::App::exit; this program
// never calls exit() (it returns from main).
#ifdef exit
#undef exit
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "redist/mpi/dropin.h"

namespace {

struct Args {
  std::string patterns, alltoallv = "native", datatype = "byte", report;
  int calls = 5;
  bool lookup = false;  // an MPI_Allreduce of 4 integers before each call
};

// One pattern as this rank sees it: its row and column of the byte matrix.
struct Pattern {
  std::string name;
  std::vector<std::int64_t> send_bytes, recv_bytes;  // to and from every rank
  std::int64_t total_bytes = 0;                      // over the whole matrix
};

constexpr int kMaxRanks = 4096;                    // keeps the MPI_DOUBLE values exact
constexpr std::int64_t kMaxElements = 1LL << 27;   // per block, also for the exact values
constexpr std::int64_t kMaxRankBytes = 1LL << 30;  // a rank's send or receive total (int displs)

std::vector<Pattern> read_patterns(const std::string& path, int me, int ranks) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read " + path + " (at --patterns)");
  const nlohmann::json doc = nlohmann::json::parse(in).at("dropin_patterns");
  if (doc.at("ranks").get<int>() != ranks) {
    throw std::invalid_argument("the patterns are for " +
                                std::to_string(doc.at("ranks").get<int>()) +
                                " ranks, smpirun started " + std::to_string(ranks));
  }
  std::vector<Pattern> out;
  for (const auto& p : doc.at("patterns")) {
    Pattern pat;
    pat.name = p.at("name").get<std::string>();
    const auto& m = p.at("bytes");
    if (m.size() != static_cast<std::size_t>(ranks)) {
      throw std::invalid_argument("pattern " + pat.name + ": not one row per rank");
    }
    pat.send_bytes.assign(static_cast<std::size_t>(ranks), 0);
    pat.recv_bytes.assign(static_cast<std::size_t>(ranks), 0);
    for (int i = 0; i < ranks; ++i) {
      const auto& row = m[static_cast<std::size_t>(i)];
      if (row.size() != static_cast<std::size_t>(ranks)) {
        throw std::invalid_argument("pattern " + pat.name + ": row " + std::to_string(i) +
                                    " is not one count per rank");
      }
      for (int j = 0; j < ranks; ++j) {
        const auto b = row[static_cast<std::size_t>(j)].get<std::int64_t>();
        if (b < 0) throw std::invalid_argument("pattern " + pat.name + ": a negative count");
        pat.total_bytes += b;
        if (i == me) pat.send_bytes[static_cast<std::size_t>(j)] = b;
        if (j == me) pat.recv_bytes[static_cast<std::size_t>(i)] = b;
      }
    }
    out.push_back(std::move(pat));
  }
  return out;
}

// The contents: element `index` of the block `from` sends to `to`, in send buffer copy `copy`.
std::uint8_t byte_value(std::int64_t from, std::int64_t to, std::int64_t index, int copy) {
  return static_cast<std::uint8_t>((from * 131 + to * 31 + index * 7 + index / 253 + copy * 101) &
                                   0xff);
}

// Exact in a double: key < 2 * 4096^2 = 2^25, index < 2^27.
double double_value(std::int64_t from, std::int64_t to, std::int64_t index, int copy, int ranks) {
  const std::int64_t key = (from * ranks + to) * 2 + copy;
  return static_cast<double>(key) * static_cast<double>(kMaxElements) + static_cast<double>(index);
}

// Counts and displacements in elements of `size` bytes, packed by peer.
struct Layout {
  std::vector<int> counts, displs;
  std::int64_t elements = 0;
};

Layout layout_of(const std::vector<std::int64_t>& bytes, int size, const std::string& name) {
  Layout l;
  for (const std::int64_t b : bytes) {
    if (b % size != 0) {
      throw std::invalid_argument("pattern " + name + ": " + std::to_string(b) +
                                  " bytes is not a whole number of elements of " +
                                  std::to_string(size) + " bytes (at --datatype)");
    }
    if (b / size >= kMaxElements) throw std::invalid_argument("pattern " + name + ": too large");
    l.counts.push_back(static_cast<int>(b / size));
    l.displs.push_back(static_cast<int>(l.elements));
    l.elements += b / size;
    if (l.elements * size > kMaxRankBytes) {
      throw std::invalid_argument("pattern " + name + ": a rank sends or receives over 1 GiB");
    }
  }
  return l;
}

struct Result {
  std::vector<double> ends;  // each call's end from the barrier, the largest over the ranks
  bool verified = false;
};

int call(const Args& a, const void* send, const Layout& s, MPI_Datatype type, void* recv,
         const Layout& r) {
  if (a.alltoallv == "redist") {
    return redist_alltoallv(send, s.counts.data(), s.displs.data(), type, recv, r.counts.data(),
                            r.displs.data(), type, MPI_COMM_WORLD);
  }
  return MPI_Alltoallv(send, s.counts.data(), s.displs.data(), type, recv, r.counts.data(),
                       r.displs.data(), type, MPI_COMM_WORLD);
}

template <class T, class Value>
Result run_typed(const Args& a, const Pattern& p, MPI_Datatype type, int me, int ranks,
                 Value value) {
  const Layout s = layout_of(p.send_bytes, sizeof(T), p.name);
  const Layout r = layout_of(p.recv_bytes, sizeof(T), p.name);
  std::vector<T> send[2], recv(static_cast<std::size_t>(r.elements));
  for (int copy = 0; copy < 2; ++copy) {
    send[copy].resize(static_cast<std::size_t>(s.elements));
    for (int j = 0; j < ranks; ++j) {
      const auto u = static_cast<std::size_t>(j);
      T* block = send[copy].data() + s.displs[u];
      for (std::int64_t k = 0; k < s.counts[u]; ++k) block[k] = value(me, j, k, copy);
    }
  }
  Result res;
  res.ends.assign(static_cast<std::size_t>(a.calls), 0.0);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  int failed = MPI_SUCCESS;
  for (int k = 0; k < a.calls; ++k) {
    if (a.lookup) {
      // What a replacement that looks its pattern up at every call costs a native call: the
      // ranks synchronise before it, so consecutive calls no longer overlap.
      long long words[4] = {k, 0, 0, 0};
      MPI_Allreduce(MPI_IN_PLACE, words, 4, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    }
    const int rc = call(a, send[k % 2].data(), s, type, recv.data(), r);
    if (rc != MPI_SUCCESS) failed = rc;
    res.ends[static_cast<std::size_t>(k)] = MPI_Wtime() - t0;
  }
  MPI_Allreduce(MPI_IN_PLACE, res.ends.data(), a.calls, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int copy = (a.calls - 1) % 2;
  int ok = failed == MPI_SUCCESS ? 1 : 0;
  for (int i = 0; i < ranks && ok; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const T* block = recv.data() + r.displs[u];
    for (std::int64_t k = 0; k < r.counts[u]; ++k) {
      if (block[k] != value(i, me, k, copy)) {
        ok = 0;
        break;
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  res.verified = ok == 1;
  return res;
}

Result run_pattern(const Args& a, const Pattern& p, int me, int ranks) {
  if (a.datatype == "double") {
    return run_typed<double>(a, p, MPI_DOUBLE, me, ranks,
                             [ranks](std::int64_t from, std::int64_t to, std::int64_t k, int copy) {
                               return double_value(from, to, k, copy, ranks);
                             });
  }
  return run_typed<std::uint8_t>(a, p, MPI_BYTE, me, ranks, byte_value);
}

int run(const Args& a, int me, int ranks) {
  if (!a.report.empty() && a.alltoallv != "redist") {
    throw std::invalid_argument("--report applies to --alltoallv redist only");
  }
  if (ranks > kMaxRanks) throw std::invalid_argument("at most 4096 ranks");
  const std::vector<Pattern> patterns = read_patterns(a.patterns, me, ranks);
  bool all = true;
  for (const Pattern& p : patterns) {
    const Result r = run_pattern(a, p, me, ranks);
    all = all && r.verified;
    if (me != 0) continue;
    std::string calls;
    for (std::size_t k = 0; k < r.ends.size(); ++k) {
      char number[32];
      std::snprintf(number, sizeof number, "%s%.9g", k ? ", " : "",
                    r.ends[k] - (k ? r.ends[k - 1] : 0.0));
      calls += number;
    }
    std::printf(
        "{\"pattern\": \"%s\", \"ranks\": %d, \"alltoallv\": \"%s\", \"datatype\": \"%s\", "
        "\"calls\": %d, \"seconds\": %.9g, \"call_seconds\": [%s], \"bytes\": %lld, "
        "\"verified\": %s}\n",
        p.name.c_str(), ranks, a.alltoallv.c_str(), a.datatype.c_str(), a.calls, r.ends.back(),
        calls.c_str(), static_cast<long long>(p.total_bytes), r.verified ? "true" : "false");
    std::fflush(stdout);
  }
  if (!a.report.empty() && redist_dropin_report(a.report.c_str()) != MPI_SUCCESS) {
    throw std::runtime_error("cannot write " + a.report + " (at --report)");
  }
  return all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  CLI::App app{"redist-smpi-dropin: MPI_Alltoallv or redist_alltoallv, timed under SMPI"};
  Args a;
  app.add_option("--patterns", a.patterns, "patterns JSON (smpi_dropin.py writes them)")
      ->required();
  app.add_option("--calls", a.calls, "calls per pattern, timed together")
      ->check(CLI::Range(1, 1000));
  app.add_option("--alltoallv", a.alltoallv, "native (MPI_Alltoallv) or redist (redist_alltoallv)")
      ->check(CLI::IsMember({"native", "redist"}));
  app.add_option("--datatype", a.datatype, "byte (MPI_BYTE) or double (MPI_DOUBLE)")
      ->check(CLI::IsMember({"byte", "double"}));
  app.add_option("--report", a.report, "redist: the drop-in's report, written at the end");
  app.add_flag("--lookup", a.lookup,
               "native: an MPI_Allreduce of 4 integers before each call (a pattern lookup)");
  int rc = 0;
  try {
    app.parse(argc, argv);
    rc = run(a, me, ranks);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
