// Executes any exchange plan (redist/exchange.hpp: messages [from, to, bytes] scheduled as pieces
// under the one-port model) on MPI ranks, and the two baselines it is compared with: one
// MPI_Alltoallv and ScaLAPACK's caterpillar (docs/exchange.md, "Execution on MPI").
//
// Node i of the instance is rank i of the communicator (ranks beyond the nodes take part with
// nothing to move). Buffers are described as MPI_Alltoallv describes them with MPI_BYTE: per rank
// j of the communicator, a count and a displacement in bytes in the send buffer (what this rank
// sends j) and in the receive buffer (what it receives from j). sendcounts[j] must be the bytes
// of the instance's message [me, j] (0 without one), recvcounts[j] those of [j, me]; the entry of
// the rank itself (sendcounts[me] == recvcounts[me]) is copied locally, as MPI_Alltoallv does.
// packed_layouts() gives the layout that puts a rank's messages one after the other by peer.
//
// Exchange (built once per communicator and exchange; collective), in one of two ways:
// - From an instance and a plan held by every rank: construction checks that they are the same on
//   every rank (a 64-bit hash, one MPI_Allreduce); rank 0 alone checks that they are valid
//   (exchange::check) and broadcasts its verdict, and each rank cuts its own pieces only
//   (own_transfers, mpi/transfers.hpp): byte offsets within each message are the rounded
//   cumulative sums of its pieces in start order (the last ends at the message's bytes), so every
//   byte is delivered exactly once; pieces that round to no byte are skipped at both ends. Per
//   rank O(P + p + k log k) for P pieces, k of them the rank's (the hash and one pass); rank 0
//   adds the validator's O(P log P).
// - Planned on rank 0 from every rank's row (what it sends each rank, as MPI_Alltoallv's send
//   counts) on a platform (exchange/platform.hpp) with the name of an algorithm
//   (exchange/planner.hpp) that every rank gives alike: rank 0 gathers the rows (the non-zero
//   entries only), plans (exchange::plan), checks, and sends each rank its pieces (cut as above,
//   split at 2^31-1 bytes). Per rank O(p + k) CPU and memory; rank 0 adds the planner's and the
//   validator's cost and O(m + P) memory. Messages: an MPI_Gather and an MPI_Gatherv of the rows,
//   two broadcasts, an MPI_Alltoall of one word per pair (what each rank receives), an MPI_Scatter
//   and an MPI_Scatterv of the pieces.
// - execute walks this rank's pieces in the plan's order (start time, then index in the plan):
//   at most one send and one receive outstanding, the next send posted when the previous one
//   completed, likewise receives, as the one-port model plans. Nothing waits on clocks: the order
//   on each port is the plan's. Deadlock freedom: the earliest unfinished piece of the plan (in
//   that order) is posted at both of its ends, so some piece always completes, whatever the plan.
//   Pieces of a pair travel with one tag and are matched in order (MPI's non-overtaking rule).
// - Arrivals: execute may be given a callback (on_arrival) that sees every piece this rank
//   receives as soon as its receive completed, before the next receive is posted: the pieces in
//   the order they arrived, which is this rank's receive order in the plan, so the pieces of one
//   peer come in increasing offset order and tile its message exactly once (receives() calls per
//   execute; pieces that round to no byte are never posted nor reported). At each call, the bytes
//   of the piece are in recvbuf and no receive is outstanding, so the bytes not reported yet are
//   untouched. It lets a caller unpack while the rest moves; since the next receive waits for it,
//   a slow callback delays the plan. It must not call this object. A callback that throws stops
//   the rank as a failed MPI call does: every rank throws the same Error ("execute: the arrival
//   callback failed on rank r: " and the exception's what()), and the object stays usable. After
//   a failure no further piece is reported, even one settled into recvbuf.
// Guarantees: after execute, recvbuf holds every message exactly (received pieces land at their
// offsets); sendbuf is never written. Errors are collective (communicator.hpp): every rank throws
// the same redist::mpi::Error, at construction for instances or plans that differ or are invalid
// or a piece over 2^31-1 bytes, in execute for counts that do not match the instance or a null
// buffer (before any byte moves), and when an MPI call fails on some rank (after the step: a rank
// that stops sends every other a failure notice, so none waits forever; after the agreement the
// ranks exchange what they sent and settle every message in flight, so the object stays usable).
// With a backbone, the executor keeps each port's order but does not hold the backbone to
// `transfers` crossing pieces at once (docs/exchange.md says why).
// Costs: construction as above, plus one MPI_Comm_dup and a few agreements (MPI_Allreduce of a
// few words); each execute one MPI_Allreduce to check
// arguments and one to agree at the end, plus one MPI message per piece of this rank; no buffer
// besides the caller's. Without a callback, an arrival costs one test of an empty function.
//
// Baselines (collective over `comm` itself, under its error handler as mpi/baselines.hpp's): the
// same buffers and counts, no plan. alltoallv_exchange is one MPI_Alltoallv; caterpillar_exchange
// runs n = size steps, in step t rank i exchanges its messages with rank (t - i) mod n by one
// MPI_Sendrecv (the pairing is symmetric; the rank paired with itself copies). A failed call is
// agreed on and every rank throws the same Error; counts over 2^31-1 bytes are refused.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "redist/exchange/model.hpp"
#include "redist/exchange/platform.hpp"
#include "redist/mpi/communicator.hpp"
#include "redist/mpi/transfers.hpp"

namespace redist::mpi {

// Bytes per rank of the communicator, and where they are in a buffer (MPI_Alltoallv's counts
// and displacements, in bytes).
struct BufferLayout {
  std::vector<std::int64_t> counts;
  std::vector<std::int64_t> displs;
  std::int64_t extent() const;  // the bytes the buffer needs: the largest displs[j] + counts[j]
};

// This rank's send and receive layouts over `ranks` ranks, messages packed by peer order, and the
// entry of the rank itself (`self_bytes` copied locally, 0 by default) in its place.
struct PackedLayouts {
  BufferLayout send, recv;
};
PackedLayouts packed_layouts(const exchange::Instance& instance, int rank, int ranks,
                             std::int64_t self_bytes = 0);

class Exchange {
 public:
  // Collective. Throws Error on every rank when the communicator has fewer ranks than the
  // instance's nodes, the instance or the plan differs between ranks or is invalid, a piece
  // exceeds 2^31-1 bytes, or an MPI call fails.
  Exchange(MPI_Comm comm, const exchange::Instance& instance, const exchange::Plan& plan);

  // Collective: planned on rank 0. `send_bytes[j]`: the bytes this rank sends rank j (one entry
  // per rank; its own entry is not moved by the plan: execute copies it locally). `platform`
  // (one row per rank of the communicator) and `algorithm` (one of exchange::kAlgorithms) must
  // be the same on every rank. Throws
  // Error on every rank when a row is malformed (wrong length, a negative count), the platform or
  // the algorithm differ between ranks, the platform does not have the communicator's ranks, rank
  // 0 cannot plan (the planner's own error, e.g. a size limit or an unknown algorithm), or an MPI
  // call fails.
  Exchange(MPI_Comm comm, std::span<const std::int64_t> send_bytes,
           const exchange::Platform& platform, std::string_view algorithm = "auto");

  // A piece this rank received: `bytes` (> 0) at `offset` of the message from `peer`, now at
  // `data` in the receive buffer (recvbuf + rdispls[peer] + offset).
  struct Arrival {
    int peer = 0;
    std::int64_t offset = 0;
    std::int64_t bytes = 0;
    const std::byte* data = nullptr;
  };
  // Called on the receiving rank once per received piece, as soon as it completed and before the
  // rank's next receive is posted: it runs on the receive port's critical path, so keep it short.
  using ArrivalCallback = std::function<void(const Arrival&)>;

  // Collective: moves every message of the instance from the senders' send buffers to the
  // receivers' receive buffers (layouts as MPI_Alltoallv's with MPI_BYTE, one entry per rank).
  // `on_arrival`, when set, sees each piece this rank receives, in arrival order (the header's
  // comment says what it may rely on); none is called for the rank's own entry.
  void execute(const void* sendbuf, std::span<const std::int64_t> sendcounts,
               std::span<const std::int64_t> sdispls, void* recvbuf,
               std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
               const ArrivalCallback& on_arrival = {});
  void execute(const void* sendbuf, const BufferLayout& send, void* recvbuf,
               const BufferLayout& recv, const ArrivalCallback& on_arrival = {}) {
    execute(sendbuf, send.counts, send.displs, recvbuf, recv.counts, recv.displs, on_arrival);
  }

  int rank() const { return comm_.rank(); }
  int size() const { return comm_.size(); }
  // The plan's algorithm and its makespan under the model (seconds).
  const std::string& algorithm() const { return algorithm_; }
  double model_makespan() const { return makespan_; }
  // The pieces this rank sends and receives per execute (MPI messages).
  std::size_t sends() const { return transfers_.sends.size(); }
  std::size_t receives() const { return transfers_.recvs.size(); }

  using Transfer = mpi::Transfer;
  const RankTransfers& transfers() const { return transfers_; }

 private:
  void check_arguments(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, const void* recvbuf,
                       std::span<const std::int64_t> recvcounts,
                       std::span<const std::int64_t> rdispls) const;

  void set_rows(const exchange::Instance& instance);
  void refuse_large_pieces(const CallLog& log) const;

  Communicator comm_;
  std::string algorithm_;
  double makespan_ = 0.0;
  std::vector<std::int64_t> send_bytes_, recv_bytes_;  // per rank: this rank's messages
  RankTransfers transfers_;                            // in the plan's order
};

// Collective: rank 0's `all` (one entry per rank; ignored on the other ranks) handed out, each
// rank receiving its own entry: two counts per rank (MPI_Scatter), then three words per transfer
// (MPI_Scatterv). Every rank throws the same Error when rank 0's words do not fit one MPI call
// (2^31-1 words) or a call fails.
RankTransfers scatter_transfers(const Communicator& comm, const std::vector<RankTransfers>& all);

// Runs one rank's transfers on `comm` (a library Communicator: MPI_ERRORS_RETURN, the library's
// own traffic only), the walk of Exchange::execute: at most one send and one receive outstanding,
// each posted when the previous one completed, in the given order; then the step's agreement.
// Buffers and byte displacements (per peer) as Exchange::execute's; the rank's own block is the
// caller's. Collective; every rank throws the same Error when a call failed on some rank (the
// messages in flight are settled first, so `comm` stays usable).
void run_transfers(const Communicator& comm, const RankTransfers& transfers, const void* sendbuf,
                   std::span<const std::int64_t> sdispls, void* recvbuf,
                   std::span<const std::int64_t> rdispls,
                   const Exchange::ArrivalCallback& on_arrival = {});

// The baselines, with the same arguments as Exchange::execute (counts must match pairwise; a
// mismatch is MPI's truncation error, agreed on).
void alltoallv_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send, void* recvbuf,
                        const BufferLayout& recv);
void caterpillar_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send,
                          void* recvbuf, const BufferLayout& recv);
// Zoltan's migration pattern (Zoltan_Comm_Do, which Zoltan_Migrate uses to move objects): every
// receive posted at once, a barrier, then one blocking send after the other, to the ranks from
// this one upwards (wrapping), then a wait for every receive. Sends to one rank at a time but no
// order of the receivers: what an unscheduled exchange of a partitioner does.
void posted_exchange(MPI_Comm comm, const void* sendbuf, const BufferLayout& send, void* recvbuf,
                     const BufferLayout& recv);

}  // namespace redist::mpi
