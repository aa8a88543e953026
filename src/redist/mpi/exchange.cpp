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
#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/mpi/transfers.hpp"

namespace redist::mpi {

namespace {

using Hash = FnvHash;  // equal platforms and algorithms, equal hashes

// Collective: Error on every rank unless every rank's hash is the same (of `what`), and with the
// first failure `log` holds on some rank.
void require_same_everywhere(const Communicator& comm, const CallLog& log, std::uint64_t hash,
                             const char* what) {
  const auto half = static_cast<std::int64_t>(hash >> 1);
  std::int64_t words[2] = {half, -half};  // max and -min
  agree_or_throw(comm.get(), log, words);
  if (words[0] != -words[1]) {
    throw Error(fmt::format("redist::mpi: Exchange: {} differs between ranks", what));
  }
}

std::uint64_t hash_of(const exchange::Platform& platform, std::string_view algorithm) {
  Hash h;
  h.add(static_cast<std::uint64_t>(platform.ranks));
  for (double b : platform.send_bandwidth) h.add(b);
  for (double b : platform.recv_bandwidth) h.add(b);
  h.add(platform.latency);
  h.add(static_cast<std::uint64_t>(platform.backbone.has_value()));
  if (platform.backbone) {
    for (const auto& cluster : platform.backbone->clusters) {
      h.add(static_cast<std::uint64_t>(cluster.size()));
      for (std::int64_t rank : cluster) h.add(rank);
    }
    h.add(platform.backbone->bandwidth);
  }
  h.add(static_cast<std::uint64_t>(algorithm.size()));
  for (char c : algorithm) h.add(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
  return h.value();
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
    : comm_(comm, "Exchange"), algorithm_(plan.algorithm), makespan_(plan.makespan) {
  CallLog log("Exchange", comm_.rank());
  require_same_everywhere(comm_, log, plan_hash(instance, plan), "the instance or the plan");
  // Identical everywhere: rank 0 checks for all and tells its verdict.
  std::string refused = comm_.rank() == 0 ? refusal(instance, plan, comm_.size()) : "";
  std::vector<char> verdict(refused.begin(), refused.end());
  broadcast_bytes(comm_.get(), log, verdict);
  if (!verdict.empty()) {
    throw Error("redist::mpi: Exchange: " + std::string(verdict.begin(), verdict.end()));
  }
  set_rows(instance);
  transfers_ =
      own_transfers(instance, plan, comm_.rank(), std::numeric_limits<std::int64_t>::max());
  refuse_large_pieces(log);
}

// The largest piece of any rank, agreed on: over 2^31-1 bytes, every rank refuses.
void Exchange::refuse_large_pieces(const CallLog& log) const {
  std::int64_t largest = 0;
  for (const auto* list : {&transfers_.sends, &transfers_.recvs}) {
    for (const Transfer& t : *list) largest = std::max(largest, t.bytes);
  }
  agree_or_throw(comm_.get(), log, std::span(&largest, 1));
  if (largest > INT_MAX) {
    throw Error(fmt::format(
        "redist::mpi: Exchange: a piece of {} bytes exceeds one MPI message (2^31-1 bytes)",
        largest));
  }
}

// This rank's messages: the bytes it sends each rank and receives from each.
void Exchange::set_rows(const exchange::Instance& instance) {
  const auto ranks = static_cast<std::size_t>(comm_.size());
  const std::int64_t me = comm_.rank();
  send_bytes_.assign(ranks, 0);
  recv_bytes_.assign(ranks, 0);
  for (const exchange::Message& m : instance.messages) {
    if (m.from == me) send_bytes_[static_cast<std::size_t>(m.to)] = m.bytes;
    if (m.to == me) recv_bytes_[static_cast<std::size_t>(m.from)] = m.bytes;
  }
}

namespace {

// Why this rank's row cannot be planned (empty when it can).
std::string row_error(std::span<const std::int64_t> send_bytes, std::size_t ranks,
                      const exchange::Platform& platform) {
  if (send_bytes.size() != ranks) {
    return fmt::format("send_bytes has {} entries, the communicator {} ranks", send_bytes.size(),
                       ranks);
  }
  if (platform.ranks != ranks) {
    return fmt::format("the platform has {} ranks, the communicator {}", platform.ranks, ranks);
  }
  for (std::size_t j = 0; j < ranks; ++j) {
    if (send_bytes[j] < 0) return fmt::format("send_bytes[{}] is negative ({})", j, send_bytes[j]);
  }
  return {};
}

// Collective: every rank's messages on rank 0 (what it sends, as words to and bytes; the rank's
// own entry left out), one MPI_Gather of counts and one MPI_Gatherv.
std::vector<exchange::Message> gather_messages(const Communicator& comm, CallLog& log,
                                               std::span<const std::int64_t> send_bytes) {
  const bool root = comm.rank() == 0;
  const auto p = static_cast<std::size_t>(comm.size());
  std::vector<std::int64_t> mine;
  for (std::size_t j = 0; j < p; ++j) {
    if (static_cast<int>(j) != comm.rank() && send_bytes[j] > 0) {
      mine.push_back(static_cast<std::int64_t>(j));
      mine.push_back(send_bytes[j]);
    }
  }
  int words = static_cast<int>(mine.size());
  std::vector<int> sizes(root ? p : 0), offsets(root ? p : 0);
  log.check("MPI_Gather", [&] {
    return MPI_Gather(&words, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm.get());
  });
  std::int64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    offsets[i] = static_cast<int>(std::min<std::int64_t>(total, INT_MAX));
    total += sizes[i];
  }
  if (total > INT_MAX) log.fail(fmt::format("{} messages exceed one gather", total / 2));
  agree_or_throw(comm.get(), log);
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  log.check("MPI_Gatherv", [&] {
    return MPI_Gatherv(mine.data(), words, MPI_INT64_T, all.data(), sizes.data(), offsets.data(),
                       MPI_INT64_T, 0, comm.get());
  });
  agree_or_throw(comm.get(), log);
  std::vector<exchange::Message> messages;
  messages.reserve(all.size() / 2);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (int k = 0; k < sizes[i]; k += 2) {
      const auto at = static_cast<std::size_t>(offsets[i] + k);
      messages.push_back({static_cast<std::int64_t>(i), all[at], all[at + 1]});
    }
  }
  return messages;
}

// What rank 0 planned: the transfers of every rank, the algorithm and the model's makespan; or
// why it could not.
struct RootPlan {
  std::vector<RankTransfers> ranks;
  std::string algorithm;
  double makespan = 0.0;
  std::string refused;
};

RootPlan plan_on_root(std::vector<exchange::Message> messages, const exchange::Platform& platform,
                      std::string_view algorithm) {
  RootPlan r;
  try {
    const exchange::Instance in = exchange::instance_on(platform, std::move(messages));
    // The planners validate the instance.
    const exchange::Plan plan = exchange::plan(in, algorithm);
    const CheckResult verdict = exchange::check(in, plan);
    if (!verdict.valid) {
      r.refused = fmt::format("the {} plan is invalid: {}", plan.algorithm, verdict.reason);
      return r;
    }
    r.ranks = all_transfers(in, plan, platform.ranks, INT_MAX);
    r.algorithm = plan.algorithm;
    r.makespan = plan.makespan;
  } catch (const std::exception& e) {
    r.refused = e.what();
  }
  return r;
}

}  // namespace

Exchange::Exchange(MPI_Comm comm, std::span<const std::int64_t> send_bytes,
                   const exchange::Platform& platform, std::string_view algorithm)
    : comm_(comm, "Exchange") {
  CallLog log("Exchange", comm_.rank());
  const auto p = static_cast<std::size_t>(comm_.size());
  const std::string bad_row = row_error(send_bytes, p, platform);
  if (!bad_row.empty()) log.fail(bad_row);
  require_same_everywhere(comm_, log, hash_of(platform, algorithm),
                          "the platform or the algorithm");
  std::vector<exchange::Message> messages = gather_messages(comm_, log, send_bytes);
  RootPlan root;
  if (comm_.rank() == 0) root = plan_on_root(std::move(messages), platform, algorithm);
  std::vector<char> verdict(root.refused.begin(), root.refused.end());
  broadcast_bytes(comm_.get(), log, verdict);
  if (!verdict.empty()) {
    throw Error("redist::mpi: Exchange: " + std::string(verdict.begin(), verdict.end()));
  }
  // The plan's claims, rank 0's: the makespan's bytes, then the algorithm's name.
  std::vector<char> claims(sizeof(double) + root.algorithm.size());
  std::memcpy(claims.data(), &root.makespan, sizeof(double));
  std::copy(root.algorithm.begin(), root.algorithm.end(), claims.data() + sizeof(double));
  broadcast_bytes(comm_.get(), log, claims);
  std::memcpy(&makespan_, claims.data(), sizeof(double));
  algorithm_.assign(claims.begin() + sizeof(double), claims.end());
  send_bytes_.assign(send_bytes.begin(), send_bytes.end());
  send_bytes_[static_cast<std::size_t>(comm_.rank())] = 0;
  recv_bytes_.assign(p, 0);
  log.check("MPI_Alltoall", [&] {
    return MPI_Alltoall(send_bytes_.data(), 1, MPI_INT64_T, recv_bytes_.data(), 1, MPI_INT64_T,
                        comm_.get());
  });
  agree_or_throw(comm_.get(), log);
  transfers_ = scatter_transfers(comm_, root.ranks);
}

RankTransfers scatter_transfers(const Communicator& comm, const std::vector<RankTransfers>& all) {
  CallLog log("scatter_transfers", comm.rank());
  const auto p = static_cast<std::size_t>(comm.size());
  const bool root = comm.rank() == 0;
  std::vector<std::int64_t> counts(root ? 2 * p : 0), words;
  std::vector<int> sizes(root ? p : 0), offsets(root ? p : 0);
  if (root && all.size() != p) log.fail(fmt::format("{} ranks' transfers for {}", all.size(), p));
  for (std::size_t i = 0; root && i < all.size() && i < p; ++i) {
    counts[2 * i] = static_cast<std::int64_t>(all[i].sends.size());
    counts[2 * i + 1] = static_cast<std::int64_t>(all[i].recvs.size());
    offsets[i] = static_cast<int>(std::min<std::size_t>(words.size(), INT_MAX));
    for (const auto* list : {&all[i].sends, &all[i].recvs}) {
      for (const Transfer& t : *list) {
        words.push_back(t.peer);
        words.push_back(t.offset);
        words.push_back(t.bytes);
      }
    }
    sizes[i] = static_cast<int>(std::min<std::size_t>(words.size() - offsets[i], INT_MAX));
  }
  if (words.size() > INT_MAX) log.fail(fmt::format("{} words exceed one scatter", words.size()));
  agree_or_throw(comm.get(), log);
  std::int64_t own[2] = {0, 0};
  log.check("MPI_Scatter", [&] {
    return MPI_Scatter(counts.data(), 2, MPI_INT64_T, own, 2, MPI_INT64_T, 0, comm.get());
  });
  agree_or_throw(comm.get(), log);
  std::vector<std::int64_t> received(static_cast<std::size_t>(3 * (own[0] + own[1])));
  log.check("MPI_Scatterv", [&] {
    return MPI_Scatterv(words.data(), sizes.data(), offsets.data(), MPI_INT64_T, received.data(),
                        static_cast<int>(received.size()), MPI_INT64_T, 0, comm.get());
  });
  agree_or_throw(comm.get(), log);
  RankTransfers mine;
  for (std::int64_t k = 0; k < own[0] + own[1]; ++k) {
    const auto at = static_cast<std::size_t>(3 * k);
    const Transfer t{static_cast<int>(received[at]), received[at + 1], received[at + 2]};
    (k < own[0] ? mine.sends : mine.recvs).push_back(t);
  }
  return mine;
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
