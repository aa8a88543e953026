// Each rank's share of an exchange plan (redist/exchange.hpp): the pieces it sends and receives,
// in the plan's order, as byte ranges of its messages. MPI-free: the executor (mpi/exchange.hpp)
// and the drop-in (mpi/dropin.h) run them; rank 0 of the drop-in computes every rank's and sends
// each its own.
//
// Order: start time, then index in the plan (a stable sort), so every rank derives the same order.
// Cut: a message's pieces, in that order, take the rounded cumulative shares of its bytes (the
// last ends at the message's bytes): every byte is delivered exactly once, and pieces that round
// to no byte are dropped at both ends. A piece over `max_piece_bytes` is split into consecutive
// transfers of at most that many bytes, at both ends alike.
// Cost: O(P log P + m) for P pieces and m messages; memory O(P + m). own_transfers computes one
// rank's share alone in O(P + n + k log k) time and O(n + k) memory for its k pieces on n nodes:
// what each rank of an executor needs when every rank holds the plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::mpi {

// One transfer of a rank: `bytes` at `offset` of its message with `peer`.
struct Transfer {
  int peer = 0;
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
};

// A rank's transfers in the plan's order: what it sends, what it receives.
struct RankTransfers {
  std::vector<Transfer> sends, recvs;
};

// Every piece's byte range within its message (by index in the plan).
struct PieceCut {
  std::vector<std::int64_t> offset, bytes;
};

// The plan's order of its pieces: start time, then index.
std::vector<std::size_t> plan_order(const exchange::Plan& plan);

// The byte range of every piece (`order` as plan_order gives it).
PieceCut cut_pieces(const exchange::Instance& instance, const exchange::Plan& plan,
                    const std::vector<std::size_t>& order);

// Rank `rank`'s transfers (pieces that round to no byte left out).
RankTransfers rank_transfers(const exchange::Plan& plan, const std::vector<std::size_t>& order,
                             const PieceCut& cut, std::int64_t rank, std::int64_t max_piece_bytes);

// Rank `rank`'s transfers, equal to rank_transfers over plan_order and cut_pieces, from its own
// pieces only: they are picked in one pass, sorted, and cut per message (a message's pieces all
// belong to both of its ends, so the same cumulative sums give the same bytes). Every piece of the
// rank must belong to a message of the instance (a valid plan's do; else std::out_of_range).
RankTransfers own_transfers(const exchange::Instance& instance, const exchange::Plan& plan,
                            std::int64_t rank, std::int64_t max_piece_bytes);

// A 64-bit hash (FNV-1a) of everything of the instance and the plan that the executor uses: equal
// instances and plans hash alike on every rank. O(P + m + n).
std::uint64_t plan_hash(const exchange::Instance& instance, const exchange::Plan& plan);

// Every rank's transfers, ranks 0..ranks-1, in one pass over the pieces.
std::vector<RankTransfers> all_transfers(const exchange::Instance& instance,
                                         const exchange::Plan& plan, std::size_t ranks,
                                         std::int64_t max_piece_bytes);

}  // namespace redist::mpi
