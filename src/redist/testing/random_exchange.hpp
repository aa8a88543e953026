// Random exchange instances for property tests and benchmarks (header-only, test support only).
//
// p nodes uniform in [nodes_min, nodes_max]; each node sends to `partners` distinct random other
// nodes (fewer when p is small; drawn in O(partners) beyond kShuffleNodes nodes), bytes log-uniform
// in [1, bytes_max]; bandwidths uniform in [1, bandwidth_spread] (1 everywhere when the spread is
// 1); optional latency and backbone.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <unordered_set>
#include <utility>
#include <vector>

#include "redist/exchange/block_cyclic.hpp"
#include "redist/exchange/model.hpp"

namespace redist::testkit {

struct RandomExchangeOptions {
  std::size_t nodes_min = 2, nodes_max = 12;
  std::size_t partners = 3;
  std::int64_t bytes_max = 1000;
  double bandwidth_spread = 4.0;
  double latency = 0.0;
  bool backbone = false;
};

// An instance of `nodes` nodes with unit bandwidths, the given messages and latency.
inline exchange::Instance uniform_exchange(std::size_t nodes,
                                           std::vector<exchange::Message> messages,
                                           double latency = 0.0) {
  exchange::Instance in;
  in.nodes = nodes;
  in.messages = std::move(messages);
  in.send_bandwidth.assign(nodes, 1.0);
  in.recv_bandwidth.assign(nodes, 1.0);
  in.latency = latency;
  return in;
}

// `count` messages of `bytes` bytes with unit bandwidths: node i sends to i + 1, ..., i + partners
// (mod the nodes), nodes in order, on count / partners + partners + 1 nodes (rounded up). Built in
// O(count), for instances of a given size (the algorithms' message limits).
inline exchange::Instance circulant_exchange(std::size_t count, std::size_t partners = 8,
                                             std::int64_t bytes = 1, double latency = 0.0) {
  const std::size_t nodes = (count + partners - 1) / partners + partners + 1;
  std::vector<exchange::Message> messages;
  messages.reserve(count);
  for (std::size_t i = 0; messages.size() < count; ++i) {
    for (std::size_t d = 1; d <= partners && messages.size() < count; ++d) {
      messages.push_back(
          {static_cast<std::int64_t>(i), static_cast<std::int64_t>((i + d) % nodes), bytes});
    }
  }
  return uniform_exchange(nodes, std::move(messages), latency);
}

// Up to this many nodes the partners of a node are the first of a shuffle of all the others (the
// instances the tests and measurements were drawn with); beyond, `count` distinct partners are
// drawn by Floyd's sampling, in O(count) instead of O(nodes) per node.
inline constexpr std::size_t kShuffleNodes = 8192;

// Writes `count` distinct nodes other than `self`, in draw order, to out[0..count).
inline void sample_partners(std::mt19937_64& rng, std::size_t nodes, std::size_t self,
                            std::size_t count, std::vector<std::int64_t>& out) {
  std::unordered_set<std::size_t> chosen;  // among 0..nodes-2, then shifted past `self`
  std::size_t k = 0;
  for (std::size_t top = nodes - 1 - count; top < nodes - 1; ++top) {
    std::size_t t = std::uniform_int_distribution<std::size_t>(0, top)(rng);
    if (!chosen.insert(t).second) chosen.insert(t = top);
    out[k++] = static_cast<std::int64_t>(t >= self ? t + 1 : t);
  }
}

inline exchange::Instance random_exchange(std::mt19937_64& rng, const RandomExchangeOptions& o) {
  exchange::Instance in;
  in.nodes = std::uniform_int_distribution<std::size_t>(o.nodes_min, o.nodes_max)(rng);
  std::uniform_real_distribution<double> bandwidth(1.0, o.bandwidth_spread);
  for (std::size_t i = 0; i < in.nodes; ++i) {
    in.send_bandwidth.push_back(o.bandwidth_spread > 1 ? bandwidth(rng) : 1.0);
    in.recv_bandwidth.push_back(o.bandwidth_spread > 1 ? bandwidth(rng) : 1.0);
  }
  std::uniform_real_distribution<double> log_bytes(0.0, std::log(static_cast<double>(o.bytes_max)));
  std::vector<std::int64_t> others(in.nodes - 1);
  for (std::size_t i = 0; i < in.nodes; ++i) {
    const std::size_t count = std::min(o.partners, others.size());
    if (in.nodes > kShuffleNodes) {
      sample_partners(rng, in.nodes, i, count, others);
    } else {
      std::iota(others.begin(), others.end(), 0);
      for (auto& j : others) j += j >= static_cast<std::int64_t>(i) ? 1 : 0;
      std::shuffle(others.begin(), others.end(), rng);
    }
    for (std::size_t k = 0; k < count; ++k) {
      const auto bytes = std::max<std::int64_t>(1, std::llround(std::exp(log_bytes(rng))));
      in.messages.push_back({static_cast<std::int64_t>(i), others[k], bytes});
    }
  }
  in.latency = o.latency;
  if (o.backbone) {
    exchange::Backbone b;
    const std::size_t split = std::uniform_int_distribution<std::size_t>(1, in.nodes - 1)(rng);
    for (std::size_t i = 0; i < in.nodes; ++i) {
      b.clusters[i < split ? 0 : 1].push_back(static_cast<std::int64_t>(i));
    }
    b.transfers = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
    in.backbone = b;
  }
  return in;
}

// CYCLIC(1) on `nodes` nodes to CYCLIC(3) on as many (2^15 elements of 32 bytes per node), the
// nodes split in two clusters of nodes / 2 joined by a backbone of nodes / 4 transfers: the
// block-cyclic move of docs/exchange.md whose crossing messages make the backbone the bottleneck
// (a third more than any port).
inline exchange::Instance two_cluster_block_cyclic(std::int64_t nodes) {
  exchange::BlockCyclic layout;
  layout.elements = nodes << 15;
  layout.element_bytes = 32;
  layout.from_procs = nodes;
  layout.to_block = 3;
  layout.to_procs = nodes;
  exchange::Instance in = exchange::block_cyclic(layout);
  exchange::Backbone backbone;
  for (std::int64_t v = 0; v < nodes; ++v) backbone.clusters[v < nodes / 2 ? 0 : 1].push_back(v);
  backbone.transfers = nodes / 4;
  in.backbone = backbone;
  return in;
}

}  // namespace redist::testkit
