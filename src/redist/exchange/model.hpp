// The exchange model: any redistribution as a set of messages between the nodes of a switched
// network (docs/exchange.md, docs/formats.md).
//
// p nodes; each message carries `bytes` > 0 from `from` to `to` (from != to, each ordered pair at
// most once). Node i sends at most send_bandwidth[i] and receives at most recv_bandwidth[i] bytes
// per second. A message may be cut into pieces; a piece of b bytes from i to j occupies i's send
// port and j's receive port for latency + b / min(send_bandwidth[i], recv_bandwidth[j]) seconds.
// One-port: at any instant a node sends at most one piece and receives at most one. With a
// backbone, the nodes form two clusters and at most `transfers` pieces cross between them at once
// (the KPBS setting of Cohen, Jeannot, Padoy and Wagner). Nodes are indexed from 0.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/common/result.hpp"

namespace redist::exchange {

struct Message {
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t bytes = 0;
};

// Two clusters joined by a backbone that carries at most `transfers` pieces at once.
struct Backbone {
  std::array<std::vector<std::int64_t>, 2> clusters;  // together, every node exactly once
  std::int64_t transfers = 1;                         // k >= 1
};

struct Instance {
  std::size_t nodes = 0;
  std::vector<Message> messages;
  std::vector<double> send_bandwidth;  // bytes per second, one per node
  std::vector<double> recv_bandwidth;  // bytes per second, one per node
  double latency = 0.0;                // seconds per piece (beta)
  // The bandwidth fields the document left out, for which the reader assumed 1 byte per second
  // ("send_bandwidth", "recv_bandwidth"): every plan says so in its notes.
  std::vector<std::string> assumed_bandwidths;
  // Bytes a dense `matrix` keeps on their own node (its diagonal, as MPI_Alltoallv's counts have
  // one): never moved, so not messages; every plan says so in its notes.
  std::int64_t local_bytes = 0;
  std::optional<Backbone> backbone;

  // Bytes per second of a piece from i to j.
  double rate(std::size_t from, std::size_t to) const {
    return send_bandwidth[from] < recv_bandwidth[to] ? send_bandwidth[from] : recv_bandwidth[to];
  }
  // Seconds a message takes in one piece: latency + bytes / rate.
  double duration(const Message& m) const;
};

// A piece of a message: `bytes` (a fraction of a byte is allowed in the model; an executor rounds
// the cumulative offsets) sent from `from` to `to` from `start` on, for latency + bytes / rate.
struct Piece {
  std::int64_t from = 0;
  std::int64_t to = 0;
  double start = 0.0;
  double bytes = 0.0;
};

// Seconds piece p keeps its ports busy: latency + bytes / rate(from, to). Its nodes must be in
// range (the caller checks).
double piece_seconds(const Instance& instance, const Piece& p);

// The lower bounds of an instance (redist/exchange/bounds.hpp says why each holds).
struct Bounds {
  double ports = 0.0;
  std::optional<double> backbone;  // with a backbone only
  double lower_bound = 0.0;        // the largest term
};

// What a step algorithm (ggp, oggp, steps: redist/exchange/kpbs.hpp) states about its step
// schedule: the number of steps and Cohen, Jeannot, Padoy and Wagner's lower bound eta on every
// step schedule of the KPBS model (not on every piece schedule: Plan::lower_bound is that one).
struct StepStats {
  std::size_t count = 0;     // non-empty steps
  double lower_bound = 0.0;  // eta = eta_d + latency * eta_s
  double eta_d = 0.0;        // max(W, P / k): the data term, seconds
  std::size_t eta_s = 0;     // max(Delta, ceil(m / k)): the fewest steps
  // When each step starts, in order (count of them), as the planner laid them out; a plan read
  // from a document has them when it lists them (`"starts"`, as plan writes them).
  std::vector<double> starts;
};

// The result of every exchange planner: its claims, the bound's terms, and its pieces.
struct Plan : PlanClaims {
  Bounds bounds;  // lower_bound is bounds.lower_bound
  std::vector<Piece> pieces;
  std::optional<StepStats> steps;  // step algorithms only
};

// For each node, its cluster (0 or 1) under the backbone, or an empty vector without one.
std::vector<std::uint8_t> cluster_of(const Instance& instance);

// Whether a message (or piece) from `from` to `to` crosses the backbone, given cluster_of's
// result (empty without a backbone: nothing crosses).
inline bool crosses(const std::vector<std::uint8_t>& cluster, std::int64_t from, std::int64_t to) {
  return !cluster.empty() &&
         cluster[static_cast<std::size_t>(from)] != cluster[static_cast<std::size_t>(to)];
}

// Checks what the JSON reader also enforces, for instances built in code (InputError naming the
// field): 2 <= nodes <= kMaxNodes, at most kMaxMessages messages, each with from != to in range,
// 1 <= bytes <= kMaxMessageBytes, each ordered pair once; bandwidths finite and >= the smallest
// normal double, one per node; latency finite and >= 0; the backbone's clusters a partition of the
// nodes and transfers >= 1; and every time a planner may write finite (require_finite_times).
void validate_instance(const Instance& instance);

// Refuses an instance whose schedule times might not be finite: the sum over messages of their
// durations (a bound on every planner's makespan) must be at most 1e300.
void require_finite_times(const Instance& instance);

// Refuses, before any work, an instance of more than `limit` messages: the most `algorithm` plans
// within its time budget (limits.hpp). OptionError at "algorithm" naming the algorithm, the
// instance's messages, the limit and `cost` (why the algorithm grows past it). O(1).
void require_algorithm_messages(const Instance& instance, std::string_view algorithm,
                                std::size_t limit, std::string_view cost);

}  // namespace redist::exchange
