// The migration of a Zoltan partition as one exchange instance, the same on every rank
// (docs/zoltan.md). MPI-free: the adapter gathers every rank's report (one MPI_Allgatherv) and
// each rank then takes the same census of the same reports, so every rank reaches the same
// instance, or the same error.
//
// Each rank reports, per peer it sends objects to, the objects, their bytes on the wire
// (wire.hpp), their payload (the sizes the application's size function gave), their load, and a
// digest of their global ids (the sum of a 64-bit hash of each id); per peer it receives objects
// from, the objects and the digest of the ids its import list names. The census checks that both
// ends of every pair agree (same count, same digest), which catches import and export lists that
// do not describe the same migration, and that every rank was given the same settings. The
// instance has one node per rank and one message [from, to, bytes on the wire] per pair; the
// loads after are the loads before, minus what a rank sends, plus what it receives.
// Guarantee: a census that returns describes a migration whose every object leaves exactly one
// rank and arrives at the one its sender names (up to a 2^-64 chance of two different id sets
// having the same digest). Complexity: O(p + m log m) for p ranks and m pairs.
#pragma once

#include <zoltan.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::zoltan {

// The network a migration is planned for: bytes per second per rank (empty: 1 for every rank)
// and seconds per piece.
struct Platform {
  std::vector<double> send_bandwidth;
  std::vector<double> recv_bandwidth;
  double latency = 0.0;
};

// Objects one rank sends to (or receives from) one peer.
struct Flow {
  std::int64_t peer = 0;
  std::int64_t objects = 0;
  std::int64_t bytes = 0;    // on the wire; sends only
  std::int64_t payload = 0;  // the objects' sizes; sends only
  double load = 0.0;         // the objects' load; sends only
  std::uint64_t ids = 0;     // digest of the objects' global ids
};

struct RankReport {
  std::vector<Flow> sends;     // one per destination, never the rank itself
  std::vector<Flow> receives;  // one per source, never the rank itself
  double load = 0.0;           // of the rank's objects before the migration
  double kept_load = 0.0;      // of those that stay on the rank
  std::int64_t objects = 0;    // before the migration
  std::uint64_t settings = 0;  // digest of what must be the same on every rank
};

struct Census {
  exchange::Instance instance;
  std::vector<double> load_before, load_after;  // per rank
  std::vector<std::int64_t> objects_before, objects_after;
  std::int64_t moved_objects = 0;
  std::int64_t payload_bytes = 0;  // the moved objects' sizes, without Zoltan's headers
};

// A 64-bit hash of one global id (`entries` words).
std::uint64_t id_hash(const ZOLTAN_ID_TYPE* gid, int entries);

// The report as bytes and back (every rank runs the same binary).
std::vector<char> serialize(const RankReport& report);
RankReport deserialize(const char* bytes, std::size_t size);

// The census of reports[r] from rank r. InputError (whose message names the ranks involved) when
// fewer than 2 ranks report, a rank's settings differ from rank 0's, a flow names a peer out of
// range or itself or twice, a pair's ends disagree, or the instance is invalid for the platform
// (exchange::validate_instance: bandwidths one per rank, positive, finite; latency >= 0).
Census take_census(const std::vector<RankReport>& reports, const Platform& platform);

}  // namespace redist::zoltan
