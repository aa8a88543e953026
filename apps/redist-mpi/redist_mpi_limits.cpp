// The instance of redist-mpi and the size limits of a run (redist_mpi_limits.hpp).
#include "apps/redist-mpi/redist_mpi_limits.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/io/json.hpp"
#include "redist/io/located.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/mpi/baselines.hpp"

namespace redist::mpi::driver {

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed (code {})", call, code));
}

namespace {

// Broadcasts a string from rank 0.
void bcast_string(std::string& s) {
  std::int64_t len = static_cast<std::int64_t>(s.size());
  check(MPI_Bcast(&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  s.resize(static_cast<std::size_t>(len));
  if (len > 0) {
    check(MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
}

template <class T>
void bcast_vector(std::vector<T>& v, MPI_Datatype type, std::size_t n) {
  v.resize(n);
  if (n > 0) {
    check(MPI_Bcast(v.data(), static_cast<int>(n), type, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
}

// This rank's footprint: staging bytes, messages (all executions), posted requests, and 1 when
// LAU's makespan overflows.
struct FootprintWords {
  std::int64_t words[4] = {0, 0, 0, 0};
};

FootprintWords footprint_of(const Args& a, const redist::mpi::Redistribution& r, int rank) {
  const std::int64_t b = bytes_of(a, rank);
  FootprintWords f;
  std::int64_t* mine = f.words;
  if (a.strategy == "redist") {
    mine[0] =
        static_cast<std::int64_t>(r.staging_bound(static_cast<std::size_t>(b), !a.out_of_place));
    mine[1] = r.messages() * a.repeat;
    mine[2] = r.request_slots(static_cast<std::size_t>(b), !a.out_of_place);
  } else if (a.strategy == "linear") {
    const redist::mpi::LocalPlan& lp = r.local();
    mine[0] = (lp.right.in + lp.right.out + lp.left.in + lp.left.out) * b;
    mine[3] =
        std::isfinite(redist::mpi::lau_single_send_makespan(r.instance(), r.plan().flows)) ? 0 : 1;
  }
  if (a.strategy == "alltoallv") mine[0] = r.local().target * b;  // its receive buffer
  return f;
}

}  // namespace

redist::ring::Instance read_instance(const Args& a, int rank, int size) {
  redist::ring::Instance in;
  std::string error;
  if (rank == 0) {
    try {
      in = redist::io::read_ring_instance(
          redist::io::parse_document(redist::io::read_text(a.instance_file)));
      if (static_cast<std::int64_t>(in.size()) != size) {
        error = fmt::format(
            "the instance has {} processors but mpirun started {} ranks (use "
            "mpirun -np {})",
            in.size(), size, in.size());
      }
    } catch (const redist::InputError& e) {
      error = redist::io::located(e, "$.ring").what();
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  bcast_string(error);
  if (!error.empty()) throw Error("redist::mpi: " + redist::one_line(error, 400));
  int bidi = in.bidirectional ? 1 : 0;
  check(MPI_Bcast(&bidi, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  in.bidirectional = bidi != 0;
  const std::size_t n = static_cast<std::size_t>(size);
  bcast_vector(in.loads, MPI_INT64_T, n);
  bcast_vector(in.targets, MPI_INT64_T, n);
  bcast_vector(in.cost_next, MPI_DOUBLE, n);
  bcast_vector(in.cost_prev, MPI_DOUBLE, in.bidirectional ? n : 0);
  return in;
}

std::int64_t bytes_of(const Args& a, int r) {
  return r == a.bytes_rank ? a.bytes_size : a.item_bytes;
}

void check_instance(const Args& a, const redist::ring::Instance& in) {
  std::int64_t total = 0;
  bool over = false;
  for (std::size_t r = 0; r < in.size(); ++r) {
    over = over || in.loads[r] > kMaxTotalItems || in.targets[r] > kMaxTotalItems ||
           __builtin_add_overflow(total, in.loads[r], &total) || total > kMaxTotalItems;
  }
  if (over) {
    throw usage(
        fmt::format("the instance has more than {} items (old or new counts), the limit "
                    "(planning follows items one by one); use fewer items",
                    kMaxTotalItems));
  }
  // Every count is now <= 1e8 + 1 and every item size <= 64 MiB: no product below overflows.
  for (std::size_t r = 0; r < in.size(); ++r) {
    const std::int64_t load = in.loads[r];
    const std::int64_t target = in.targets[r] + (a.bad_target == static_cast<int>(r) ? 1 : 0);
    const std::int64_t held = std::max(load, target), b = bytes_of(a, static_cast<int>(r));
    std::int64_t bytes = held * b + (a.out_of_place ? target * b : 0);
    if (a.repeat > 1) bytes += 8 * (held + (a.out_of_place ? target : 0));  // int64 vectors
    if (a.strategy == "alltoallv") bytes += target * b;                     // its receive buffer
    if (bytes > kMaxRankBytes) {
      throw usage(
          fmt::format("rank {} would hold {} bytes of items, over the limit of {} (1 GiB) "
                      "per rank; use fewer items (--max-items or the instance), a smaller "
                      "--item-bytes or more ranks",
                      r, bytes, kMaxRankBytes));
    }
  }
}

Footprint check_footprint(const Args& a, const redist::mpi::Redistribution& r, int rank) {
  const FootprintWords mine = footprint_of(a, r, rank);
  std::int64_t all[4];
  check(MPI_Allreduce(mine.words, all, 4, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  if (a.max_staging > 0 && all[0] > a.max_staging) {
    throw usage(
        fmt::format("a rank needs {} bytes of staging and message buffers (automatic "
                    "windows already shrunk to the fewest slots that cannot deadlock), "
                    "over --max-staging-bytes {}; raise it or lower --segment-items",
                    all[0], a.max_staging));
  }
  if (all[0] > kMaxStagingBytes) {
    throw usage(
        fmt::format("a rank would allocate {} bytes of staging and message buffers, over "
                    "the limit of {} (1 GiB); lower --window, --segment-items or "
                    "--max-staging-bytes",
                    all[0], kMaxStagingBytes));
  }
  if (all[1] > kMaxMessages) {
    throw usage(
        fmt::format("a rank would send and receive {} messages (all --repeat executions), "
                    "over the limit of {}; raise --segment-items, lower --min-segments "
                    "or --repeat",
                    all[1], kMaxMessages));
  }
  if (all[2] > kMaxRequests) {
    throw usage(
        fmt::format("a rank would post {} MPI requests at once, over the limit of {}; "
                    "lower --window or raise --segment-items",
                    all[2], kMaxRequests));
  }
  // The event loop scans the posted requests once per completion (MPI_Waitsome and the
  // bookkeeping of every open group): its work grows as messages x posted requests.
  if (static_cast<double>(all[1]) * static_cast<double>(all[2]) > kMaxLoopWork) {
    throw usage(
        fmt::format("a rank would send and receive {} messages with up to {} MPI requests "
                    "posted, over the limit of {:.0e} for their product (the execution "
                    "scans its posted requests per message); raise --segment-items, "
                    "lower --window, --min-segments or --repeat",
                    all[1], all[2], kMaxLoopWork));
  }
  if (all[3] != 0) {
    throw usage(
        "LAU's single-send makespan overflows a double (costs times items); scale the costs");
  }
  return {all[1], all[2]};
}

OverlapLayout overlap_layout(std::int64_t load, std::int64_t target, std::int64_t b, int rank) {
  if (load < 1 || target < 1 || (load == 1 && target == 1 && b == 1)) {
    throw usage(
        fmt::format("--overlap-on {}: that rank has {} old and {} new items of {} bytes, "
                    "so its buffers cannot overlap; choose a rank with items on both sides",
                    rank, load, target, b));
  }
  const std::size_t L = static_cast<std::size_t>(load), T = static_cast<std::size_t>(target),
                    B = static_cast<std::size_t>(b);
  OverlapLayout o;
  o.size = (L + T) * B;
  if (T >= 2) {
    o.in = (T - 1) * B;  // the last new item is the first old one
  } else if (L >= 2) {
    o.out = (L - 1) * B;  // the last old item is the (only) new one
  } else {
    o.out = 1;  // one item each: shifted by one byte
  }
  return o;
}

}  // namespace redist::mpi::driver
