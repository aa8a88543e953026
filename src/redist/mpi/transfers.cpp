#include "redist/mpi/transfers.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace redist::mpi {

std::vector<std::size_t> plan_order(const exchange::Plan& plan) {
  std::vector<std::size_t> order(plan.pieces.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return plan.pieces[a].start < plan.pieces[b].start;
  });
  return order;
}

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
    double total = 0.0, cumulative = 0.0;
    for (std::size_t k : pieces_of[m]) total += plan.pieces[k].bytes;
    std::int64_t at = 0;
    const std::int64_t bytes = in.messages[m].bytes;
    for (std::size_t n = 0; n < pieces_of[m].size(); ++n) {
      const std::size_t k = pieces_of[m][n];
      cumulative += plan.pieces[k].bytes;
      const std::int64_t end =
          n + 1 == pieces_of[m].size()
              ? bytes
              : std::clamp<std::int64_t>(
                    std::llround(cumulative / total * static_cast<double>(bytes)), at, bytes);
      cut.offset[k] = at;
      cut.bytes[k] = end - at;
      at = end;
    }
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

}  // namespace

RankTransfers rank_transfers(const exchange::Plan& plan, const std::vector<std::size_t>& order,
                             const PieceCut& cut, std::int64_t rank, std::int64_t max_piece_bytes) {
  RankTransfers t;
  for (std::size_t k : order) {
    const exchange::Piece& p = plan.pieces[k];
    if (cut.bytes[k] == 0) continue;
    if (p.from == rank) {
      append_split(t.sends, static_cast<int>(p.to), cut.offset[k], cut.bytes[k], max_piece_bytes);
    } else if (p.to == rank) {
      append_split(t.recvs, static_cast<int>(p.from), cut.offset[k], cut.bytes[k], max_piece_bytes);
    }
  }
  return t;
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
