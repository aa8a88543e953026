#include "redist/mpi/baselines.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace redist::mpi {

namespace {

constexpr int kTagLauRight = 7311;  // items moving to succ
constexpr int kTagLauLeft = 7312;   // items moving to pred

}  // namespace

std::size_t alltoallv_execute(MPI_Comm comm, const Redistribution& r, void* data,
                              std::size_t item_bytes) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size < 2) return 0;
  const ring::Instance& in = r.instance();
  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  std::int64_t total = 0;
  for (std::int64_t l : in.loads) total += l;
  // Counts and displacements are ints (bytes): decided from gathered data, same on every rank.
  if (B <= 0 || total > INT_MAX / B) {
    throw Error(fmt::format("redist::mpi: alltoallv: {} items of {} bytes exceed int byte counts",
                            total, B));
  }
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<std::int64_t> old_start(n + 1, 0), new_start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    old_start[i + 1] = old_start[i] + in.loads[i];
    new_start[i + 1] = new_start[i] + in.targets[i];
  }
  const std::size_t me = static_cast<std::size_t>(rank);
  std::vector<int> scount(n, 0), sdispl(n, 0), rcount(n, 0), rdispl(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    // What I send to j: my old range intersected with j's new range.
    std::int64_t a = std::max(old_start[me], new_start[j]);
    std::int64_t b = std::min(old_start[me + 1], new_start[j + 1]);
    if (b > a) {
      scount[j] = static_cast<int>((b - a) * B);
      sdispl[j] = static_cast<int>((a - old_start[me]) * B);
    }
    a = std::max(old_start[j], new_start[me]);
    b = std::min(old_start[j + 1], new_start[me + 1]);
    if (b > a) {
      rcount[j] = static_cast<int>((b - a) * B);
      rdispl[j] = static_cast<int>((a - new_start[me]) * B);
    }
  }
  std::vector<std::byte> recv(static_cast<std::size_t>(in.targets[me] * B));
  std::byte dummy{};
  MPI_Alltoallv(data != nullptr ? data : &dummy, scount.data(), sdispl.data(), MPI_BYTE,
                recv.empty() ? &dummy : recv.data(), rcount.data(), rdispl.data(), MPI_BYTE, comm);
  if (!recv.empty()) std::memcpy(data, recv.data(), recv.size());
  return recv.size();
}

std::size_t lau_linear_execute(MPI_Comm comm, const Redistribution& r, void* data,
                               std::size_t item_bytes) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (size < 2) return 0;
  const std::int64_t B = static_cast<std::int64_t>(item_bytes);
  std::int64_t max_flow = 0;
  for (std::int64_t f : r.plan().flows) max_flow = std::max(max_flow, std::abs(f));
  if (B <= 0 || max_flow > INT_MAX / B) {
    throw Error(
        fmt::format("redist::mpi: linear: a message of {} items of {} bytes exceeds 2^31-1 bytes",
                    max_flow, B));
  }
  const LocalPlan& lp = r.local();
  std::byte* base = static_cast<std::byte*>(data);
  const int succ = (rank + 1) % size, pred = (rank + size - 1) % size;
  const Side sides[2] = {Side::right, Side::left};
  const int peer_in[2] = {pred, succ}, peer_out[2] = {succ, pred};
  const int tags[2] = {kTagLauRight, kTagLauLeft};
  std::vector<std::byte> in_buf[2], out_buf[2];
  MPI_Request recv_req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Request send_req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::size_t bytes = 0;
  for (int f = 0; f < 2; ++f) {
    const Stream& s = lp.stream(sides[f]);
    in_buf[f].resize(static_cast<std::size_t>(s.in * B));
    out_buf[f].resize(static_cast<std::size_t>(s.out * B));
    bytes += in_buf[f].size() + out_buf[f].size();
    if (s.in > 0) {
      MPI_Irecv(in_buf[f].data(), static_cast<int>(s.in * B), MPI_BYTE, peer_in[f], tags[f], comm,
                &recv_req[f]);
    }
  }
  // One message per stream, items in increasing global order (position_in_segment over [0, out)).
  auto send = [&](int f) {
    const Side side = sides[f];
    const Stream& s = lp.stream(side);
    for (std::int64_t k = 0; k < s.out; ++k) {
      const std::byte* src =
          k < s.own_out ? base + lp.own_offset(side, k) * B
                        : in_buf[f].data() + position_in_segment(side, 0, s.in, k - s.own_out) * B;
      std::memcpy(out_buf[f].data() + position_in_segment(side, 0, s.out, k) * B, src,
                  static_cast<std::size_t>(B));
    }
    MPI_Isend(out_buf[f].data(), static_cast<int>(s.out * B), MPI_BYTE, peer_out[f], tags[f], comm,
              &send_req[f]);
  };
  // Senders of their own items only ("green") send at once; a forwarder ("red") waits for its
  // whole incoming message first. With net flows a forwarder has one incoming stream.
  for (int f = 0; f < 2; ++f) {
    const Stream& s = lp.stream(sides[f]);
    if (s.out > 0 && s.fwd == 0) send(f);
  }
  for (int f = 0; f < 2; ++f) {
    const Stream& s = lp.stream(sides[f]);
    if (s.out > 0 && s.fwd > 0) {
      MPI_Wait(&recv_req[f], MPI_STATUS_IGNORE);
      send(f);
    }
  }
  MPI_Waitall(2, recv_req, MPI_STATUSES_IGNORE);
  MPI_Waitall(2, send_req, MPI_STATUSES_IGNORE);
  // Every own outgoing item is in a send buffer: move the kept items, then place received ones.
  if (lp.kept > 0 && lp.kept_from != lp.kept_to) {
    std::memmove(base + lp.kept_to * B, base + lp.kept_from * B,
                 static_cast<std::size_t>(lp.kept * B));
  }
  for (int f = 0; f < 2; ++f) {
    const Side side = sides[f];
    const Stream& s = lp.stream(side);
    for (std::int64_t k = s.fwd; k < s.in; ++k) {
      std::memcpy(base + lp.placed_offset(side, k) * B,
                  in_buf[f].data() + position_in_segment(side, 0, s.in, k) * B,
                  static_cast<std::size_t>(B));
    }
  }
  return bytes;
}

double lau_single_send_makespan(const ring::Instance& instance,
                                const std::vector<std::int64_t>& flows) {
  const std::int64_t n = static_cast<std::int64_t>(flows.size());
  std::vector<double> finish(static_cast<std::size_t>(n), -1.0);
  // finish(i): end of the message over link i (between i and i+1), or 0 without a message.
  std::function<double(std::int64_t, std::int64_t)> end = [&](std::int64_t i,
                                                              std::int64_t depth) -> double {
    const std::size_t u = static_cast<std::size_t>(i);
    if (flows[u] == 0) return 0.0;
    if (finish[u] >= 0) return finish[u];
    if (depth > n) return 0.0;  // cannot happen with some flow 0 (no forwarding cycle)
    const bool right = flows[u] > 0;
    const std::int64_t sender = right ? i : (i + 1) % n;
    const Side side = right ? Side::right : Side::left;
    const double cost =
        right ? instance.cost_next[u] : instance.cost_prev[static_cast<std::size_t>(sender)];
    const LocalPlan lp = make_local_plan(instance, flows, sender);
    double start = 0.0;
    if (lp.stream(side).fwd > 0) start = end(right ? (i + n - 1) % n : (i + 1) % n, depth + 1);
    finish[u] = start + static_cast<double>(std::abs(flows[u])) * cost;
    return finish[u];
  };
  double makespan = 0.0;
  for (std::int64_t i = 0; i < n; ++i) makespan = std::max(makespan, end(i, 0));
  return makespan;
}

}  // namespace redist::mpi
