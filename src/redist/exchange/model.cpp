#include "redist/exchange/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

void require_bandwidths(const std::vector<double>& bandwidth, std::size_t nodes, const char* name) {
  if (bandwidth.size() != nodes) {
    throw InputError(fmt::format("{} bandwidths for {} nodes", bandwidth.size(), nodes), name);
  }
  for (std::size_t i = 0; i < nodes; ++i) {
    const double b = bandwidth[i];
    if (!std::isfinite(b) || b < std::numeric_limits<double>::min()) {
      throw InputError("must be a finite number > 0 (bytes per second)",
                       fmt::format("{}[{}]", name, i));
    }
  }
}

void require_node(std::int64_t node, std::size_t nodes, const std::string& path) {
  if (node < 0 || static_cast<std::size_t>(node) >= nodes) {
    throw InputError(fmt::format("node {} is not in 0..{}", node, nodes - 1), path);
  }
}

void require_messages(const Instance& in) {
  if (in.messages.size() > kMaxMessages) {
    throw InputError(
        fmt::format("{} messages: at most {} are accepted", in.messages.size(), kMaxMessages),
        "messages");
  }
  std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, std::size_t>> pairs;
  pairs.reserve(in.messages.size());
  for (std::size_t k = 0; k < in.messages.size(); ++k) {
    const Message& m = in.messages[k];
    const std::string path = fmt::format("messages[{}]", k);
    require_node(m.from, in.nodes, path + "[0]");
    require_node(m.to, in.nodes, path + "[1]");
    if (m.from == m.to) throw InputError("a node sends nothing to itself", path);
    if (m.bytes < 1) {
      throw InputError(fmt::format("bytes must be at least 1, got {}", m.bytes), path + "[2]");
    }
    if (m.bytes > kMaxMessageBytes) {
      throw InputError(fmt::format("bytes must be at most 2^53 = {} (exact in a double), got {}",
                                   kMaxMessageBytes, m.bytes),
                       path + "[2]");
    }
    pairs.push_back({{m.from, m.to}, k});
  }
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t k = 1; k < pairs.size(); ++k) {
    if (pairs[k].first == pairs[k - 1].first) {
      throw InputError(fmt::format("a second message from {} to {} (the first is messages[{}])",
                                   pairs[k].first.first, pairs[k].first.second,
                                   std::min(pairs[k].second, pairs[k - 1].second)),
                       fmt::format("messages[{}]", std::max(pairs[k].second, pairs[k - 1].second)));
    }
  }
}

void require_backbone(const Backbone& backbone, std::size_t nodes) {
  if (backbone.transfers < 1) throw InputError("must be >= 1", "backbone.transfers");
  std::vector<bool> seen(nodes, false);
  std::size_t count = 0;
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t k = 0; k < backbone.clusters[c].size(); ++k) {
      const std::string path = fmt::format("backbone.clusters[{}][{}]", c, k);
      const std::int64_t node = backbone.clusters[c][k];
      require_node(node, nodes, path);
      if (seen[static_cast<std::size_t>(node)]) {
        throw InputError(fmt::format("node {} is listed twice", node), path);
      }
      seen[static_cast<std::size_t>(node)] = true;
      ++count;
    }
  }
  if (count != nodes) {
    throw InputError(fmt::format("the clusters hold {} of the {} nodes (each node belongs to one)",
                                 count, nodes),
                     "backbone.clusters");
  }
}

}  // namespace

double Instance::duration(const Message& m) const {
  return latency + static_cast<double>(m.bytes) /
                       rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
}

double piece_seconds(const Instance& instance, const Piece& p) {
  return instance.latency +
         p.bytes / instance.rate(static_cast<std::size_t>(p.from), static_cast<std::size_t>(p.to));
}

std::vector<std::uint8_t> cluster_of(const Instance& instance) {
  if (!instance.backbone) return {};
  std::vector<std::uint8_t> cluster(instance.nodes, 0);
  for (const std::int64_t node : instance.backbone->clusters[1]) {
    cluster[static_cast<std::size_t>(node)] = 1;
  }
  return cluster;
}

void require_finite_times(const Instance& instance) {
  double total = 0.0;
  for (const Message& m : instance.messages) total += instance.duration(m);
  if (!(total <= kMaxTotalSeconds)) {
    throw InputError(fmt::format("the messages take {} seconds in all, beyond the {} a schedule "
                                 "may reach (a bandwidth too small for the bytes?)",
                                 total, kMaxTotalSeconds),
                     "messages");
  }
}

void validate_instance(const Instance& instance) {
  if (instance.nodes < 2 || instance.nodes > kMaxNodes) {
    throw InputError(fmt::format("must be in 2..{}", kMaxNodes), "nodes");
  }
  require_bandwidths(instance.send_bandwidth, instance.nodes, "send_bandwidth");
  require_bandwidths(instance.recv_bandwidth, instance.nodes, "recv_bandwidth");
  if (!std::isfinite(instance.latency) || instance.latency < 0) {
    throw InputError("must be a finite number >= 0 (seconds per piece)", "latency");
  }
  require_messages(instance);
  if (instance.backbone) require_backbone(*instance.backbone, instance.nodes);
  require_finite_times(instance);
}

void require_algorithm_messages(const Instance& instance, std::string_view algorithm,
                                std::size_t limit, std::string_view cost) {
  if (instance.messages.size() <= limit) return;
  throw OptionError(fmt::format("{}: {} messages, more than the {} this algorithm plans ({}); use "
                                "auto or whole",
                                algorithm, instance.messages.size(), limit, cost),
                    "algorithm");
}

}  // namespace redist::exchange
