#include "redist/mpi/transfers.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "redist/common/fnv_hash.hpp"

namespace redist::mpi {

std::vector<std::size_t> plan_order(const exchange::Plan& plan) {
  std::vector<std::size_t> order(plan.pieces.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.pieces[a].start < plan.pieces[b].start;
  });
  return order;
}

namespace {

// Cuts the pieces of one message (`pieces`, in plan order; `bytes_of(k)` the bytes the plan gives
// piece k) into byte ranges at cut.offset[k] and cut.bytes[k]: the rounded cumulative shares of
// its `bytes`, the last ending at `bytes`.
template <class BytesOf>
void cut_message(const std::vector<std::size_t>& pieces, const BytesOf& bytes_of,
                 std::int64_t bytes, PieceCut& cut) {
  double total = 0.0, cumulative = 0.0;
  for (std::size_t k : pieces) total += bytes_of(k);
  std::int64_t at = 0;
  for (std::size_t n = 0; n < pieces.size(); ++n) {
    const std::size_t k = pieces[n];
    cumulative += bytes_of(k);
    const std::int64_t end =
        n + 1 == pieces.size()
            ? bytes
            : std::clamp<std::int64_t>(
                  std::llround(cumulative / total * static_cast<double>(bytes)), at, bytes);
    cut.offset[k] = at;
    cut.bytes[k] = end - at;
    at = end;
  }
}

}  // namespace

PieceCut cut_pieces(const exchange::Instance& in, const exchange::Plan& plan,
                    const std::vector<std::size_t>& order) {
  std::unordered_map<std::int64_t, std::size_t> message_of;  // from * nodes + to
  const auto nodes = static_cast<std::int64_t>(in.nodes);
  for (std::size_t k = 0; k < in.messages.size(); ++k) {
    message_of[in.messages[k].from * nodes + in.messages[k].to] = k;
  }
  std::vector<std::vector<std::size_t>> pieces_of(in.messages.size());
  for (std::size_t k : order) {
    const exchange::Piece& p = plan.pieces[k];
    pieces_of[message_of.at(p.from * nodes + p.to)].push_back(k);
  }
  PieceCut cut{std::vector<std::int64_t>(plan.pieces.size(), 0),
               std::vector<std::int64_t>(plan.pieces.size(), 0)};
  for (std::size_t m = 0; m < in.messages.size(); ++m) {
    cut_message(
        pieces_of[m], [&](std::size_t k) { return plan.pieces[k].bytes; }, in.messages[m].bytes,
        cut);
  }
  return cut;
}

namespace {

// Appends `bytes` at `offset` to `out`, split into transfers of at most `most` bytes.
void append_split(std::vector<Transfer>& out, int peer, std::int64_t offset, std::int64_t bytes,
                  std::int64_t most) {
  for (std::int64_t at = 0; at < bytes; at += most) {
    out.push_back({peer, offset + at, std::min(most, bytes - at)});
  }
}

// Appends piece `p`, cut to `bytes` at `offset` of its message, to rank `rank`'s transfers
// (nothing when it rounds to no byte or is not the rank's).
void append_piece(RankTransfers& t, const exchange::Piece& p, std::int64_t offset,
                  std::int64_t bytes, std::int64_t rank, std::int64_t max_piece_bytes) {
  if (bytes == 0) return;
  if (p.from == rank) {
    append_split(t.sends, static_cast<int>(p.to), offset, bytes, max_piece_bytes);
  } else if (p.to == rank) {
    append_split(t.recvs, static_cast<int>(p.from), offset, bytes, max_piece_bytes);
  }
}

}  // namespace

RankTransfers rank_transfers(const exchange::Plan& plan, const std::vector<std::size_t>& order,
                             const PieceCut& cut, std::int64_t rank, std::int64_t max_piece_bytes) {
  RankTransfers t;
  for (std::size_t k : order) {
    append_piece(t, plan.pieces[k], cut.offset[k], cut.bytes[k], rank, max_piece_bytes);
  }
  return t;
}

RankTransfers own_transfers(const exchange::Instance& in, const exchange::Plan& plan,
                            std::int64_t rank, std::int64_t max_piece_bytes) {
  std::vector<std::size_t> order;  // the rank's pieces, in the plan's order
  for (std::size_t k = 0; k < plan.pieces.size(); ++k) {
    if (plan.pieces[k].from == rank || plan.pieces[k].to == rank) order.push_back(k);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.pieces[a].start < plan.pieces[b].start;
  });
  // The rank's messages: slot 2 * peer for the one it sends to peer, 2 * peer + 1 from peer.
  std::vector<std::int64_t> bytes_of(2 * in.nodes, -1);
  for (const exchange::Message& m : in.messages) {
    if (m.from == rank) bytes_of.at(static_cast<std::size_t>(2 * m.to)) = m.bytes;
    if (m.to == rank) bytes_of.at(static_cast<std::size_t>(2 * m.from + 1)) = m.bytes;
  }
  const auto slot = [&](const exchange::Piece& p) {
    return static_cast<std::size_t>(p.from == rank ? 2 * p.to : 2 * p.from + 1);
  };
  // Per message of the rank, its pieces as positions in `order`; cut by position.
  std::vector<std::vector<std::size_t>> pieces_of(2 * in.nodes);
  for (std::size_t j = 0; j < order.size(); ++j) {
    pieces_of.at(slot(plan.pieces[order[j]])).push_back(j);
  }
  PieceCut cut{std::vector<std::int64_t>(order.size(), 0),
               std::vector<std::int64_t>(order.size(), 0)};
  const auto bytes_at = [&](std::size_t j) { return plan.pieces[order[j]].bytes; };
  for (std::size_t s = 0; s < pieces_of.size(); ++s) {
    if (pieces_of[s].empty()) continue;
    if (bytes_of[s] < 0) throw std::out_of_range("own_transfers: a piece without its message");
    cut_message(pieces_of[s], bytes_at, bytes_of[s], cut);
  }
  RankTransfers t;
  for (std::size_t j = 0; j < order.size(); ++j) {
    append_piece(t, plan.pieces[order[j]], cut.offset[j], cut.bytes[j], rank, max_piece_bytes);
  }
  return t;
}

std::uint64_t plan_hash(const exchange::Instance& in, const exchange::Plan& plan) {
  FnvHash h;
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

std::vector<RankTransfers> all_transfers(const exchange::Instance& instance,
                                         const exchange::Plan& plan, std::size_t ranks,
                                         std::int64_t max_piece_bytes) {
  const std::vector<std::size_t> order = plan_order(plan);
  const PieceCut cut = cut_pieces(instance, plan, order);
  std::vector<RankTransfers> all(ranks);
  for (std::size_t k : order) {
    const exchange::Piece& p = plan.pieces[k];
    if (cut.bytes[k] == 0) continue;
    append_split(all[static_cast<std::size_t>(p.from)].sends, static_cast<int>(p.to), cut.offset[k],
                 cut.bytes[k], max_piece_bytes);
    append_split(all[static_cast<std::size_t>(p.to)].recvs, static_cast<int>(p.from), cut.offset[k],
                 cut.bytes[k], max_piece_bytes);
  }
  return all;
}

}  // namespace redist::mpi
