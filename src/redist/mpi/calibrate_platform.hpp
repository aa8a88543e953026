// Measures the platform of a communicator for the exchange planners (redist/exchange/platform.hpp,
// docs/mpi.md, "Calibrating a platform for exchanges"): each rank's bandwidth, the latency of one
// piece, and optionally a backbone between two clusters of hosts.
//
// What it measures. The ranks meet in a round-robin tournament (the circle method: p - 1 rounds
// for an even p; for an odd p, p rounds in which one rank sits out): in each round every rank
// exchanges with one partner, so every pair meets exactly once. The rounds are separated by an
// agreement (an MPI_Allreduce of a few words, which no rank leaves before every rank entered it,
// and which spreads a failed call to every rank). Two tournaments run:
// - latency: each pair makes one untimed 1-byte MPI_Sendrecv (connection set-up), then
//   `repetitions` timed ones. A repetition's time is the slower of the two sides' (the exchange
//   is complete only when both hold their byte; the slower side also absorbs the skew between the
//   two starts); the pair's time is its fastest repetition. A 1-byte exchange both ways at once
//   takes one one-way trip, so that time is the pair's latency. Each rank takes the median over
//   its partners, and the platform's latency is the median over the ranks of those (medians of an
//   even count: the lower middle value). A median, not a minimum: the latency is paid by every
//   piece of a plan, so it must be the typical pair's, and a few slow or fast pairs (a rank on a
//   loaded core, two ranks sharing memory) move it little.
// - bandwidth: each pair exchanges `bytes` both ways at once with MPI_Sendrecv, `repetitions`
//   times, timed as above (t_ij: the fastest repetition's slower side). The rate of the pair is
//   bytes / (t_ij - latency), or bytes / t_ij when t_ij <= latency (the latency estimate is the
//   median, a fast pair may beat it; its whole time is a safe lower bound on its rate). A pair
//   goes at the slower of its two NICs (one-port, full duplex: the model's min(send_i, recv_j)),
//   so a rank's own NIC is shown by its fastest partner: send_bandwidth[i] = recv_bandwidth[i] =
//   the largest rate of rank i over its partners. One number for both directions: an exchange
//   both ways at once cannot tell them apart.
// - with clusters_by_host: the ranks are grouped by host name (host_cluster_key). With exactly
//   two groups, the backbone is measured: the k-th rank of the smaller cluster (in rank order;
//   cluster 0 on a tie, the one of rank 0) sends `bytes` to the k-th rank of the other, all pairs
//   at once, one direction, `repetitions` times after an agreement each; a repetition's time is
//   the slowest participant's, and the backbone's bandwidth is (pairs x bytes) / the fastest
//   repetition's time. One direction only: the model counts crossing pieces of both directions
//   against one limit, and a plan that crosses one way must fit. With one group, or three or
//   more, there is no backbone.
// The per-rank results are gathered on rank 0 (MPI_Gather), the platform computed there and
// broadcast (MPI_Bcast), so every rank returns the same platform, bit for bit.
//
// Guarantee: collective over `comm` (every rank must call it, with the same options); every rank
// returns the identical platform, which passes exchange::validate_platform, with `calibration` =
// {bytes, repetitions, seconds}: seconds is rank 0's wall-clock time of the whole call. Its traffic
// runs on a duplicate of `comm` (Communicator) and never meets the caller's. Errors are collective
// (communicator.hpp): every rank throws the same redist::mpi::Error for a communicator of one rank,
// options out of range (bytes in 1..2^30, repetitions in 1..100) or different between ranks, and
// a failed MPI call on any rank (agreed after each round). A measurement is as good as the quiet
// of the machine while it runs: other traffic during a round lowers that round's rates.
//
// Cost, for p ranks, b bytes and R repetitions, n = p - 1 rounds (p even) or p (p odd):
// - time about n ((R + 2) L + a) for the latency tournament and n (R (L + b / B) + L + a) for
//   the bandwidth one, with L the latency, B a pair's bandwidth and a one agreement (an
//   MPI_Allreduce, O(log p) latencies); with a backbone, R (s b / W + a) more for s ranks in the
//   smaller cluster and backbone bandwidth W. Each rank sends about n R b bytes in all.
//   Measured on one host (2 cores, shared memory): see docs/mpi.md.
// - memory: two buffers of b bytes per rank, O(p) more; rank 0 gathers O(p) numbers (and, with
//   clusters_by_host, MPI_MAX_PROCESSOR_NAME bytes per rank).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "redist/exchange/platform.hpp"

namespace redist::mpi {

// Limits of the options: a buffer of at most 1 GiB, at most 100 timed exchanges per pair.
inline constexpr std::int64_t kMaxCalibrationBytes = std::int64_t{1} << 30;
inline constexpr int kMaxCalibrationRepetitions = 100;

struct CalibrationOptions {
  std::int64_t bytes = 1 << 20;   // bytes of one timed exchange of the bandwidth tournament
  int repetitions = 3;            // timed exchanges per pair (and per backbone run), fastest kept
  bool clusters_by_host = false;  // group ranks by host name; two groups: measure a backbone
};

// Collective over comm; every rank returns the same platform.
exchange::Platform calibrate_platform(MPI_Comm comm, const CalibrationOptions& options = {});

// The cluster of a host, from the name MPI_Get_processor_name gives: the name up to its first
// '.', lower-cased, without its trailing digits and separators ('-', '_'): "node-12.example.org"
// and "Node-3" are "node", "gros-42" is "gros", "c2n07" is "c2n". A name that would be left
// empty (all digits) is kept whole, lower-cased. O(length of the name).
std::string host_cluster_key(std::string_view processor_name);

// The cluster of each name under host_cluster_key, numbered by first appearance (the first
// name's cluster is 0), and the number of clusters in `count`. O(total length of the names).
std::vector<int> host_clusters(std::span<const std::string> processor_names, int& count);

}  // namespace redist::mpi
