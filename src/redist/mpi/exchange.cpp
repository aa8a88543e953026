#include "redist/mpi/exchange.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/common/fnv_hash.hpp"
#include "redist/exchange/validate.hpp"

namespace redist::mpi {

namespace {

using Hash = FnvHash;  // equal instances and plans, equal hashes

std::uint64_t hash_of(const exchange::Instance& in, const exchange::Plan& plan) {
  Hash h;
  h.add(static_cast<std::uint64_t>(in.nodes));
  for (const exchange::Message& m : in.messages) {
    h.add(m.from), h.add(m.to), h.add(m.bytes);
  }
  for (double b : in.send_bandwidth) h.add(b);
  for (double b : in.recv_bandwidth) h.add(b);
  h.add(in.latency);
  h.add(static_cast<std::uint64_t>(in.backbone.has_value()));
  if (in.backbone) {
    for (const auto& cluster : in.backbone->clusters) {
      h.add(static_cast<std::uint64_t>(cluster.size()));
      for (std::int64_t node : cluster) h.add(node);
    }
    h.add(in.backbone->transfers);
  }
  h.add(plan.makespan);
  h.add(static_cast<std::uint64_t>(plan.pieces.size()));
  for (const exchange::Piece& p : plan.pieces) {
    h.add(p.from), h.add(p.to), h.add(p.start), h.add(p.bytes);
  }
  return h.value();
}

// Collective: Error on every rank unless every rank holds the same instance and plan.
void require_same_everywhere(const Communicator& comm, std::uint64_t hash) {
  const auto half = static_cast<std::int64_t>(hash >> 1);
  std::int64_t words[2] = {half, -half};  // max and -min
  agree_or_throw(comm.get(), CallLog("Exchange", comm.rank()), words);
  if (words[0] != -words[1]) {
    throw Error("redist::mpi: Exchange: the instance or the plan differs between ranks");
  }
}

// Why the (identical) instance and plan cannot be executed on `ranks` ranks, or empty.
std::string refusal(const exchange::Instance& in, const exchange::Plan& plan, int ranks) {
  try {
    exchange::validate_instance(in);
  } catch (const InputError& e) {
    return fmt::format("invalid instance: {}", e.what());
  }
  if (in.nodes > static_cast<std::size_t>(ranks)) {
    return fmt::format("the instance has {} nodes, the communicator {} ranks", in.nodes, ranks);
  }
  const CheckResult verdict = exchange::check(in, plan);
  if (!verdict.valid) return fmt::format("invalid plan: {}", verdict.reason);
  return {};
}

std::string layout_error(std::span<const std::int64_t> counts, std::span<const std::int64_t> displs,
                         const std::vector<std::int64_t>& want, const char* counts_name,
                         const char* displs_name, const char* message_name) {
  if (counts.size() != want.size() || displs.size() != want.size()) {
    return fmt::format("{} and {} must have {} entries (one per rank), not {} and {}", counts_name,
                       displs_name, want.size(), counts.size(), displs.size());
  }
  for (std::size_t j = 0; j < want.size(); ++j) {
    if (counts[j] != want[j]) {
      return fmt::format("{}[{}] is {}, the instance's {} {} has {} bytes", counts_name, j,
                         counts[j], message_name, j, want[j]);
    }
    if (displs[j] < 0) return fmt::format("{}[{}] is negative ({})", displs_name, j, displs[j]);
  }
  return {};
}

}  // namespace

std::int64_t BufferLayout::extent() const {
  std::int64_t end = 0;
  for (std::size_t j = 0; j < counts.size() && j < displs.size(); ++j) {
    if (counts[j] > 0) end = std::max(end, displs[j] + counts[j]);
  }
  return end;
}

PackedLayouts packed_layouts(const exchange::Instance& instance, int rank, int ranks,
                             std::int64_t self_bytes) {
  const auto n = static_cast<std::size_t>(ranks);
  PackedLayouts l{{std::vector<std::int64_t>(n, 0), std::vector<std::int64_t>(n, 0)},
                  {std::vector<std::int64_t>(n, 0), std::vector<std::int64_t>(n, 0)}};
  if (rank >= 0 && static_cast<std::size_t>(rank) < n) {
    l.send.counts[static_cast<std::size_t>(rank)] = self_bytes;
    l.recv.counts[static_cast<std::size_t>(rank)] = self_bytes;
  }
  for (const exchange::Message& m : instance.messages) {
    if (m.from == rank && static_cast<std::size_t>(m.to) < n) l.send.counts[m.to] = m.bytes;
    if (m.to == rank && static_cast<std::size_t>(m.from) < n) l.recv.counts[m.from] = m.bytes;
  }
  for (BufferLayout* b : {&l.send, &l.recv}) {
    std::exclusive_scan(b->counts.begin(), b->counts.end(), b->displs.begin(), std::int64_t{0});
  }
  return l;
}

Exchange::Exchange(MPI_Comm comm, const exchange::Instance& instance, const exchange::Plan& plan)
    : comm_(comm, "Exchange"), instance_(instance), makespan_(plan.makespan) {
  require_same_everywhere(comm_, hash_of(instance, plan));
  const std::string refused = refusal(instance, plan, comm_.size());
  if (!refused.empty()) throw Error("redist::mpi: Exchange: " + refused);
  const std::vector<std::size_t> order = plan_order(plan);
  const PieceCut cut = cut_pieces(instance, plan, order);
  build_transfers(plan, order, cut);
  // Every rank cut every piece the same way: the same verdict everywhere.
  std::int64_t largest = 0;
  for (std::int64_t b : cut.bytes) largest = std::max(largest, b);
  if (largest > INT_MAX) {
    throw Error(fmt::format(
        "redist::mpi: Exchange: a piece of {} bytes exceeds one MPI message (2^31-1 bytes)",
        largest));
  }
}

// This rank's messages, and its sends and receives in the plan's order.
void Exchange::build_transfers(const exchange::Plan& plan, const std::vector<std::size_t>& order,
                               const PieceCut& cut) {
  const auto ranks = static_cast<std::size_t>(comm_.size());
  const std::int64_t me = comm_.rank();
  send_bytes_.assign(ranks, 0);
  recv_bytes_.assign(ranks, 0);
  for (const exchange::Message& m : instance_.messages) {
    if (m.from == me) send_bytes_[static_cast<std::size_t>(m.to)] = m.bytes;
    if (m.to == me) recv_bytes_[static_cast<std::size_t>(m.from)] = m.bytes;
  }
  transfers_ = rank_transfers(plan, order, cut, me, std::numeric_limits<std::int64_t>::max());
}

void Exchange::check_arguments(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                               std::span<const std::int64_t> sdispls, const void* recvbuf,
                               std::span<const std::int64_t> recvcounts,
                               std::span<const std::int64_t> rdispls) const {
  CallLog log("execute", comm_.rank());
  const auto me = static_cast<std::size_t>(comm_.rank());
  std::vector<std::int64_t> want_send = send_bytes_, want_recv = recv_bytes_;
  if (sendcounts.size() == want_send.size() && recvcounts.size() == want_recv.size()) {
    want_send[me] = sendcounts[me];  // the local copy: any size, the same both ways
    want_recv[me] = sendcounts[me];
  }
  std::string error =
      layout_error(sendcounts, sdispls, want_send, "sendcounts", "sdispls", "message to rank");
  if (error.empty()) {
    error =
        layout_error(recvcounts, rdispls, want_recv, "recvcounts", "rdispls", "message from rank");
  }
  if (error.empty() && sendcounts[me] < 0) error = "sendcounts of the rank itself is negative";
  if (error.empty()) {
    const bool sends =
        std::any_of(sendcounts.begin(), sendcounts.end(), [](auto c) { return c > 0; });
    const bool receives =
        std::any_of(recvcounts.begin(), recvcounts.end(), [](auto c) { return c > 0; });
    if ((sends && sendbuf == nullptr) || (receives && recvbuf == nullptr)) {
      error = "a null buffer with bytes to send or receive";
    }
  }
  if (!error.empty()) log.fail(error);
  agree_or_throw(comm_.get(), log);
}

void alltoallv_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send, void* recvbuf,
                        const BufferLayout& recv) {
  int rank = -1, size = 0;
  CallLog log("alltoallv", -1);
  if (log.check("MPI_Comm_rank", [&] { return MPI_Comm_rank(comm, &rank); })) log.set_rank(rank);
  log.check("MPI_Comm_size", [&] { return MPI_Comm_size(comm, &size); });
  std::vector<int> c[4];
  const std::vector<std::int64_t>* from[4] = {&send.counts, &send.displs, &recv.counts,
                                              &recv.displs};
  for (int k = 0; k < 4; ++k) {
    if (from[k]->size() != static_cast<std::size_t>(size))
      log.fail("a layout without one entry per rank");
    for (std::int64_t v : *from[k]) {
      if (v < 0 || v > INT_MAX) log.fail(fmt::format("a count or displacement of {} bytes", v));
      c[k].push_back(static_cast<int>(std::clamp<std::int64_t>(v, 0, INT_MAX)));
    }
  }
  agree_or_throw(comm, log);
  std::byte dummy{};
  log.check("MPI_Alltoallv", [&] {
    return MPI_Alltoallv(sendbuf != nullptr ? sendbuf : &dummy, c[0].data(), c[1].data(), MPI_BYTE,
                         recvbuf != nullptr ? recvbuf : &dummy, c[2].data(), c[3].data(), MPI_BYTE,
                         comm);
  });
  agree_or_throw(comm, log);
}

namespace {

// The rank and size of `comm`, and the layouts checked (one entry per rank, counts within an
// int, displacements >= 0), agreed on by every rank.
std::pair<int, int> checked_layouts(MPI_Comm comm, CallLog& log, const BufferLayout& send,
                                    const BufferLayout& recv) {
  int rank = -1, size = 0;
  if (log.check("MPI_Comm_rank", [&] { return MPI_Comm_rank(comm, &rank); })) log.set_rank(rank);
  log.check("MPI_Comm_size", [&] { return MPI_Comm_size(comm, &size); });
  const auto n = static_cast<std::size_t>(size);
  for (const BufferLayout* b : {&send, &recv}) {
    if (b->counts.size() != n || b->displs.size() != n) {
      log.fail("a layout without one entry per rank");
      break;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (b->counts[j] < 0 || b->counts[j] > INT_MAX || b->displs[j] < 0) {
        log.fail(fmt::format("a count of {} bytes (displacement {})", b->counts[j], b->displs[j]));
      }
    }
  }
  agree_or_throw(comm, log);
  return {rank, size};
}

}  // namespace

void caterpillar_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send,
                          void* recvbuf, const BufferLayout& recv) {
  CallLog log("caterpillar", -1);
  const auto [rank, size] = checked_layouts(comm, log, send, recv);
  const auto* in = static_cast<const std::byte*>(sendbuf);
  auto* out = static_cast<std::byte*>(recvbuf);
  for (int t = 0; t < size; ++t) {
    const int peer = ((t - rank) % size + size) % size;
    const auto j = static_cast<std::size_t>(peer);
    const auto sc = static_cast<int>(send.counts[j]), rc = static_cast<int>(recv.counts[j]);
    if (peer == rank) {
      if (sc > 0)
        std::memmove(out + recv.displs[j], in + send.displs[j], static_cast<std::size_t>(sc));
      continue;
    }
    if (sc == 0 && rc == 0) continue;  // both ends know: counts match pairwise
    log.check("MPI_Sendrecv", [&] {
      return MPI_Sendrecv(sc > 0 ? in + send.displs[j] : nullptr, sc, MPI_BYTE, peer, 7401,
                          rc > 0 ? out + recv.displs[j] : nullptr, rc, MPI_BYTE, peer, 7401, comm,
                          MPI_STATUS_IGNORE);
    });
  }
  agree_or_throw(comm, log);
}

void posted_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send, void* recvbuf,
                     const BufferLayout& recv) {
  CallLog log("posted", -1);
  const auto [rank, size] = checked_layouts(comm, log, send, recv);
  const auto* in = static_cast<const std::byte*>(sendbuf);
  auto* out = static_cast<std::byte*>(recvbuf);
  const auto n = static_cast<std::size_t>(size);
  std::vector<MPI_Request> receives;
  for (std::size_t j = 0; j < n; ++j) {
    if (static_cast<int>(j) == rank || recv.counts[j] == 0) continue;
    receives.emplace_back(MPI_REQUEST_NULL);
    log.check("MPI_Irecv", [&] {
      return MPI_Irecv(out + recv.displs[j], static_cast<int>(recv.counts[j]), MPI_BYTE,
                       static_cast<int>(j), 7402, comm, &receives.back());
    });
  }
  log.check("MPI_Barrier", [&] { return MPI_Barrier(comm); });
  for (int t = 0; t < size; ++t) {  // from the rank itself upwards, wrapping
    const auto j = static_cast<std::size_t>((rank + t) % size);
    const auto bytes = static_cast<std::size_t>(send.counts[j]);
    if (bytes == 0) continue;
    if (static_cast<int>(j) == rank) {
      std::memmove(out + recv.displs[j], in + send.displs[j], bytes);
      continue;
    }
    log.check("MPI_Send", [&] {
      return MPI_Send(in + send.displs[j], static_cast<int>(bytes), MPI_BYTE, static_cast<int>(j),
                      7402, comm);
    });
  }
  log.check("MPI_Waitall", [&] {
    return MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE);
  });
  agree_or_throw(comm, log);
}

}  // namespace redist::mpi
