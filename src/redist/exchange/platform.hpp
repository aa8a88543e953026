// A calibrated platform: what the drop-in (redist/mpi/dropin.h) knows of the ranks it plans for,
// measured by redist::mpi::calibrate_platform or read from a platform file (docs/formats.md,
// "Platform file"). The exchange model's parameters, per rank of a communicator: each rank's send
// and receive bandwidth (bytes per second), one latency per piece, and optionally two clusters
// joined by a backbone of a given bandwidth.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "redist/exchange/model.hpp"

namespace redist::exchange {

struct PlatformBackbone {
  std::array<std::vector<std::int64_t>, 2> clusters;  // together, every rank exactly once
  double bandwidth = 0.0;                             // bytes per second across the backbone
};

// What a measurement of the platform cost (redist::mpi::calibrate_platform): kept with the
// platform so that a reader knows how it was obtained; no computation uses it.
struct PlatformCalibration {
  std::int64_t bytes = 0;        // bytes of one timed exchange, >= 1
  std::int64_t repetitions = 0;  // timed exchanges per pair, the fastest kept; >= 1
  double seconds = 0.0;          // wall-clock time of the whole measurement, >= 0
};

struct Platform {
  std::size_t ranks = 0;
  std::vector<double> send_bandwidth;  // bytes per second, one per rank
  std::vector<double> recv_bandwidth;  // bytes per second, one per rank
  double latency = 0.0;                // seconds per piece
  std::optional<PlatformBackbone> backbone;
  std::optional<PlatformCalibration> calibration;  // measured platforms only
};

// Refuses (InputError naming the field, as the JSON reader's paths do: "platform.ranks", ...) a
// platform of fewer than 2 or more than kMaxNodes ranks, bandwidths that are not one finite
// positive number per rank, a negative or non-finite latency, a backbone whose clusters are not a
// partition of the ranks into two non-empty sets, or whose bandwidth is not finite and positive,
// and calibration info with bytes or repetitions < 1 or seconds negative or not finite. The
// bandwidths must also be normal doubles (>= 2.2e-308), as validate_instance asks. The paths are
// those of the platform file's object: "platform.send_bandwidth[2]",
// "platform.backbone.clusters[1][0]". O(ranks).
void validate_platform(const Platform& platform);

// The exchange instance of `messages` on the platform: its bandwidths and latency; with a
// backbone, the same clusters and transfers = the number of typical NICs the backbone's bandwidth
// carries at once, max(1, floor(bandwidth / median of the smaller of each rank's send and receive
// bandwidths)), at most `ranks` (beyond that the limit never binds). The median of an even count
// is the lower of the two middle values. Messages are taken as they are
// (validate_instance checks them); the platform is checked first (validate_platform's errors).
// O(ranks) besides moving the messages.
Instance instance_on(const Platform& platform, std::vector<Message> messages);

// The platform of a communicator whose rank i is rank ranks[i] of `platform` (for example the
// world ranks of a sub-communicator): the rows of those ranks, the backbone's clusters restricted
// to them (dropped when one side is left empty), renumbered, each cluster in ascending order; the
// calibration info as it is. The platform is checked first (validate_platform's errors); then
// InputError (path "ranks[k]") when a rank is out of range or repeated. A result of fewer than 2
// ranks is returned as it is (validate_platform refuses it). O(platform.ranks + ranks.size()).
Platform sub_platform(const Platform& platform, std::span<const int> ranks);

}  // namespace redist::exchange
