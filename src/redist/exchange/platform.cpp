#include "redist/exchange/platform.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

const std::string kRoot = "platform";

bool normal_positive(double x) {
  return std::isfinite(x) && x >= std::numeric_limits<double>::min();
}

void require_bandwidths(const std::vector<double>& bandwidth, std::size_t ranks, const char* name) {
  const std::string path = kRoot + "." + name;
  if (bandwidth.size() != ranks) {
    throw InputError(fmt::format("{} bandwidths for {} ranks", bandwidth.size(), ranks), path);
  }
  for (std::size_t i = 0; i < ranks; ++i) {
    if (!normal_positive(bandwidth[i])) {
      throw InputError("must be a finite number > 0 (bytes per second)",
                       fmt::format("{}[{}]", path, i));
    }
  }
}

// The clusters: every rank exactly once, both clusters non-empty.
void require_clusters(const PlatformBackbone& backbone, std::size_t ranks) {
  const std::string path = kRoot + ".backbone.clusters";
  std::vector<bool> seen(ranks, false);
  std::size_t count = 0;
  for (std::size_t c = 0; c < 2; ++c) {
    if (backbone.clusters[c].empty()) {
      throw InputError("a cluster holds no rank", fmt::format("{}[{}]", path, c));
    }
    for (std::size_t k = 0; k < backbone.clusters[c].size(); ++k) {
      const std::string at = fmt::format("{}[{}][{}]", path, c, k);
      const std::int64_t rank = backbone.clusters[c][k];
      if (rank < 0 || static_cast<std::size_t>(rank) >= ranks) {
        throw InputError(fmt::format("rank {} is not in 0..{}", rank, ranks - 1), at);
      }
      if (seen[static_cast<std::size_t>(rank)]) {
        throw InputError(fmt::format("rank {} is listed twice", rank), at);
      }
      seen[static_cast<std::size_t>(rank)] = true;
      ++count;
    }
  }
  if (count != ranks) {
    throw InputError(fmt::format("the clusters hold {} of the {} ranks (each rank belongs to one)",
                                 count, ranks),
                     path);
  }
}

void require_calibration(const PlatformCalibration& calibration) {
  const std::string path = kRoot + ".calibration";
  if (calibration.bytes < 1) throw InputError("must be >= 1", path + ".bytes");
  if (calibration.repetitions < 1) throw InputError("must be >= 1", path + ".repetitions");
  if (!std::isfinite(calibration.seconds) || calibration.seconds < 0) {
    throw InputError("must be a finite number >= 0", path + ".seconds");
  }
}

// The lower median of the smaller of each rank's two bandwidths: a typical rank's NIC.
double median_nic(const Platform& platform) {
  std::vector<double> nic(platform.ranks);
  for (std::size_t i = 0; i < platform.ranks; ++i) {
    nic[i] = std::min(platform.send_bandwidth[i], platform.recv_bandwidth[i]);
  }
  const auto middle = nic.begin() + static_cast<std::ptrdiff_t>((nic.size() - 1) / 2);
  std::nth_element(nic.begin(), middle, nic.end());
  return *middle;
}

// The backbone's pieces at once: how many typical NICs its bandwidth carries, 1..ranks.
std::int64_t backbone_transfers(const Platform& platform) {
  const double ratio = std::floor(platform.backbone->bandwidth / median_nic(platform));
  const auto most = static_cast<double>(platform.ranks);
  return static_cast<std::int64_t>(std::clamp(ratio, 1.0, most));
}

// The backbone between the ranks kept (new_index[r] >= 0: rank r's new number), each cluster in
// ascending order; none when a cluster keeps no rank.
std::optional<PlatformBackbone> restricted(const PlatformBackbone& backbone,
                                           const std::vector<std::int64_t>& new_index) {
  PlatformBackbone out{{}, backbone.bandwidth};
  for (std::size_t c = 0; c < 2; ++c) {
    for (const std::int64_t r : backbone.clusters[c]) {
      const std::int64_t kept = new_index[static_cast<std::size_t>(r)];  // r is a valid rank
      if (kept >= 0) out.clusters[c].push_back(kept);
    }
    std::sort(out.clusters[c].begin(), out.clusters[c].end());
  }
  if (out.clusters[0].empty() || out.clusters[1].empty()) return std::nullopt;
  return out;
}

}  // namespace

void validate_platform(const Platform& platform) {
  if (platform.ranks < 2 || platform.ranks > kMaxNodes) {
    throw InputError(fmt::format("must be in 2..{}", kMaxNodes), kRoot + ".ranks");
  }
  require_bandwidths(platform.send_bandwidth, platform.ranks, "send_bandwidth");
  require_bandwidths(platform.recv_bandwidth, platform.ranks, "recv_bandwidth");
  if (!std::isfinite(platform.latency) || platform.latency < 0) {
    throw InputError("must be a finite number >= 0 (seconds per piece)", kRoot + ".latency");
  }
  if (platform.backbone) {
    require_clusters(*platform.backbone, platform.ranks);
    if (!normal_positive(platform.backbone->bandwidth)) {
      throw InputError("must be a finite number > 0 (bytes per second)",
                       kRoot + ".backbone.bandwidth");
    }
  }
  if (platform.calibration) require_calibration(*platform.calibration);
}

Instance instance_on(const Platform& platform, std::vector<Message> messages) {
  validate_platform(platform);
  Instance in;
  in.nodes = platform.ranks;
  in.messages = std::move(messages);
  in.send_bandwidth = platform.send_bandwidth;
  in.recv_bandwidth = platform.recv_bandwidth;
  in.latency = platform.latency;
  if (platform.backbone) {
    in.backbone = Backbone{platform.backbone->clusters, backbone_transfers(platform)};
  }
  return in;
}

Platform sub_platform(const Platform& platform, std::span<const int> ranks) {
  validate_platform(platform);
  // new_index[r]: the position of platform rank r in `ranks`, or -1.
  std::vector<std::int64_t> new_index(platform.ranks, -1);
  Platform out;
  out.ranks = ranks.size();
  out.latency = platform.latency;
  out.calibration = platform.calibration;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    const int r = ranks[k];
    if (r < 0 || static_cast<std::size_t>(r) >= platform.ranks) {
      throw InputError(fmt::format("rank {} is not in 0..{}", r, platform.ranks - 1),
                       fmt::format("ranks[{}]", k));
    }
    const auto at = static_cast<std::size_t>(r);
    if (new_index[at] >= 0) {
      throw InputError(
          fmt::format("rank {} is listed twice (first at ranks[{}])", r, new_index[at]),
          fmt::format("ranks[{}]", k));
    }
    new_index[at] = static_cast<std::int64_t>(k);
    out.send_bandwidth.push_back(platform.send_bandwidth[at]);
    out.recv_bandwidth.push_back(platform.recv_bandwidth[at]);
  }
  if (platform.backbone) out.backbone = restricted(*platform.backbone, new_index);
  return out;
}

}  // namespace redist::exchange
