#include "sim/tiers.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <limits>

#include <fmt/format.h>

#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "sim/random.hpp"

namespace redist::sim {
namespace {

// Side of the squares nodes are drawn in (rule 1).
constexpr std::int64_t kWanSide = 10'000;
constexpr std::int64_t kManSide = 2'000;
constexpr std::int64_t kLanSide = 400;

using detail::Random;
using detail::Stream;

// One WAN, MAN or LAN: its nodes are first, first + 1, ..., first + size - 1.
struct Network {
  Level level = Level::wan;
  std::int64_t first = 0, size = 0;
  std::int64_t parent = -1;  // index in the builder's network list; -1 for the WAN
};

std::int64_t squared_distance(const Node& u, const Node& v) {
  const std::int64_t dx = u.x - v.x, dy = u.y - v.y;
  return dx * dx + dy * dy;
}

LinkClass inner_class(Level level) {
  return level == Level::wan   ? LinkClass::wan
         : level == Level::man ? LinkClass::man
                               : LinkClass::lan;
}

class Builder {
 public:
  explicit Builder(const TiersParams& params) : placement_(params.seed, Stream::placement) {
    graph_.params = params;
  }

  Graph build() {
    const TiersParams& p = graph_.params;
    const std::int64_t mans = p.wans * p.mans_per_wan, lans = mans * p.lans_per_man;
    add_network(Level::wan, 0, p.wan_nodes, -1);
    for (std::int64_t m = 0; m < mans; ++m) add_network(Level::man, m, p.man_nodes, 0);
    for (std::int64_t l = 0; l < lans; ++l)
      add_network(Level::lan, l, p.lan_nodes, 1 + l / p.lans_per_man);
    for (const Network& net : networks_) connect(net);
    draw_hosts();
    draw_links();
    return std::move(graph_);
  }

 private:
  // Rule 1: the network's square, then its nodes.
  void add_network(Level level, std::int64_t index, std::int64_t size, std::int64_t parent) {
    std::int64_t x0 = 0, y0 = 0;
    if (parent >= 0) {
      const auto [px, py] = corners_[static_cast<std::size_t>(parent)];
      const std::int64_t parent_side = side_of(networks_[static_cast<std::size_t>(parent)].level);
      x0 = px + placement_.below(parent_side);
      y0 = py + placement_.below(parent_side);
    }
    networks_.push_back({level, std::ssize(graph_.nodes), size, parent});
    corners_.push_back({x0, y0});
    for (std::int64_t i = 0; i < size; ++i) {
      Node node;
      node.level = level;
      node.network = index;
      node.member = i;
      node.x = x0 + placement_.below(side_of(level));
      node.y = y0 + placement_.below(side_of(level));
      graph_.nodes.push_back(node);
      neighbours_.emplace_back();
    }
  }

  static std::int64_t side_of(Level level) {
    return level == Level::wan ? kWanSide : level == Level::man ? kManSide : kLanSide;
  }

  // Rules 2 to 4 for one network: its own edges, then its attachment to its parent.
  void connect(const Network& net) {
    if (net.level == Level::lan) {
      star(net);
    } else {
      spanning_tree(net);
    }
    add_redundancy(net, redundancy(net.level));
    if (net.parent >= 0) attach(net, networks_[static_cast<std::size_t>(net.parent)]);
  }

  std::int64_t redundancy(Level level) const {
    const TiersParams& p = graph_.params;
    return level == Level::wan   ? p.wan_redundancy
           : level == Level::man ? p.man_redundancy
                                 : p.lan_redundancy;
  }

  const Node& node(std::int64_t i) const { return graph_.nodes[static_cast<std::size_t>(i)]; }
  std::int64_t distance(std::int64_t u, std::int64_t v) const {
    return squared_distance(node(u), node(v));
  }

  bool adjacent(std::int64_t u, std::int64_t v) const {
    const auto& around = neighbours_[static_cast<std::size_t>(u)];
    return std::find(around.begin(), around.end(), v) != around.end();
  }

  void add_edge(std::int64_t a, std::int64_t b, LinkClass link_class) {
    graph_.edges.push_back({a, b, link_class, 0, 0});
    neighbours_[static_cast<std::size_t>(a)].push_back(b);
    neighbours_[static_cast<std::size_t>(b)].push_back(a);
  }

  // Prim: the node nearest the tree joins next (ties: lower index), through the tree node
  // nearest to it (ties: the tree node that joined first).
  void spanning_tree(const Network& net) {
    const auto s = static_cast<std::size_t>(net.size);
    std::vector<bool> joined(s, false);
    std::vector<std::int64_t> best(s, std::numeric_limits<std::int64_t>::max());
    std::vector<std::int64_t> through(s, -1);
    best[0] = 0;
    for (std::size_t step = 0; step < s; ++step) {
      std::size_t u = s;
      for (std::size_t v = 0; v < s; ++v)
        if (!joined[v] && (u == s || best[v] < best[u])) u = v;
      joined[u] = true;
      const std::int64_t nu = net.first + static_cast<std::int64_t>(u);
      if (through[u] >= 0) add_edge(net.first + through[u], nu, inner_class(net.level));
      for (std::size_t v = 0; v < s; ++v) {
        const std::int64_t d = distance(nu, net.first + static_cast<std::int64_t>(v));
        if (!joined[v] && d < best[v]) {
          best[v] = d;
          through[v] = static_cast<std::int64_t>(u);
        }
      }
    }
  }

  // The centre is the node nearest the centroid; distances scaled by the size stay integers.
  void star(const Network& net) {
    std::int64_t sx = 0, sy = 0;
    for (std::int64_t i = 0; i < net.size; ++i) {
      sx += node(net.first + i).x;
      sy += node(net.first + i).y;
    }
    std::int64_t centre = -1, best = 0;
    for (std::int64_t i = net.first; i < net.first + net.size; ++i) {
      const std::int64_t dx = net.size * node(i).x - sx, dy = net.size * node(i).y - sy;
      if (centre < 0 || dx * dx + dy * dy < best) {
        centre = i;
        best = dx * dx + dy * dy;
      }
    }
    for (std::int64_t i = net.first; i < net.first + net.size; ++i)
      if (i != centre) add_edge(std::min(i, centre), std::max(i, centre), LinkClass::lan);
  }

  std::int64_t inner_degree(const Network& net, std::int64_t u) const {
    const auto& around = neighbours_[static_cast<std::size_t>(u)];
    return std::count_if(around.begin(), around.end(), [&](std::int64_t v) {
      return v >= net.first && v < net.first + net.size;
    });
  }

  // Rule 3.
  void add_redundancy(const Network& net, std::int64_t r) {
    for (std::int64_t u = net.first; u < net.first + net.size; ++u) {
      while (inner_degree(net, u) < r) {
        std::int64_t nearest = -1;
        for (std::int64_t v = net.first; v < net.first + net.size; ++v) {
          if (v == u || adjacent(u, v)) continue;
          if (nearest < 0 || distance(u, v) < distance(u, nearest)) nearest = v;
        }
        if (nearest < 0) break;  // u is joined to every node of its network
        add_edge(std::min(u, nearest), std::max(u, nearest), inner_class(net.level));
      }
    }
  }

  // Rule 4: the closest (child, parent) pairs whose two nodes are both still free.
  void attach(const Network& child, const Network& parent) {
    const TiersParams& p = graph_.params;
    const bool man = child.level == Level::man;
    const std::int64_t count = man ? p.man_wan_edges : p.lan_man_edges;
    std::vector<bool> child_used(static_cast<std::size_t>(child.size), false);
    std::vector<bool> parent_used(static_cast<std::size_t>(parent.size), false);
    for (std::int64_t k = 0; k < count; ++k) {
      std::int64_t bc = -1, bp = -1, best = 0;
      for (std::int64_t c = 0; c < child.size; ++c) {
        if (child_used[static_cast<std::size_t>(c)]) continue;
        for (std::int64_t q = 0; q < parent.size; ++q) {
          if (parent_used[static_cast<std::size_t>(q)]) continue;
          const std::int64_t d = distance(child.first + c, parent.first + q);
          if (bc < 0 || d < best) {
            bc = c;
            bp = q;
            best = d;
          }
        }
      }
      child_used[static_cast<std::size_t>(bc)] = true;
      parent_used[static_cast<std::size_t>(bp)] = true;
      add_edge(child.first + bc, parent.first + bp, man ? LinkClass::man_wan : LinkClass::lan_man);
    }
  }

  // Rule 5.
  void draw_hosts() {
    Random rng(graph_.params.seed, Stream::hosts);
    for (Node& n : graph_.nodes) {
      if (n.level != Level::lan) continue;
      n.host = rng.uniform() < graph_.params.host_probability;
      if (n.host) {
        const auto& speeds = balance::kMachineSpeeds;
        n.speed = speeds[static_cast<std::size_t>(rng.below(std::ssize(speeds)))];
      }
    }
  }

  // Rule 6.
  void draw_links() {
    Random rng(graph_.params.seed, Stream::links);
    for (Edge& e : graph_.edges) {
      const LinkTable& table = link_table(e.link_class);
      e.bandwidth = table.bandwidth[static_cast<std::size_t>(rng.below(5))];
      e.latency = table.latency[static_cast<std::size_t>(rng.below(5))];
    }
  }

  Graph graph_;
  Random placement_;
  std::vector<Network> networks_;
  std::vector<std::array<std::int64_t, 2>> corners_;  // lower corner of each network's square
  std::vector<std::vector<std::int64_t>> neighbours_;
};

[[noreturn]] void refuse(const std::string& message) { throw InputError(message, "--tiers"); }

void require_range(const char* name, std::int64_t value, std::int64_t low, std::int64_t high,
                   const char* when = "") {
  if (value < low || value > high)
    refuse(fmt::format("{} must be in {}..{}{}, got {}", name, low, high, when, value));
}

std::vector<std::vector<std::int64_t>> incident_edges(const Graph& graph) {
  std::vector<std::vector<std::int64_t>> incident(graph.nodes.size());
  for (std::size_t k = 0; k < graph.edges.size(); ++k) {
    incident[static_cast<std::size_t>(graph.edges[k].a)].push_back(static_cast<std::int64_t>(k));
    incident[static_cast<std::size_t>(graph.edges[k].b)].push_back(static_cast<std::int64_t>(k));
  }
  return incident;
}

std::int64_t other_end(const Edge& e, std::int64_t u) { return e.a == u ? e.b : e.a; }

std::vector<std::int64_t> bfs(const Graph& graph,
                              const std::vector<std::vector<std::int64_t>>& incident,
                              std::int64_t source) {
  std::vector<std::int64_t> hops(graph.nodes.size(), -1);
  std::deque<std::int64_t> queue{source};
  hops[static_cast<std::size_t>(source)] = 0;
  while (!queue.empty()) {
    const std::int64_t u = queue.front();
    queue.pop_front();
    for (std::int64_t k : incident[static_cast<std::size_t>(u)]) {
      const std::int64_t v = other_end(graph.edges[static_cast<std::size_t>(k)], u);
      if (hops[static_cast<std::size_t>(v)] >= 0) continue;
      hops[static_cast<std::size_t>(v)] = hops[static_cast<std::size_t>(u)] + 1;
      queue.push_back(v);
    }
  }
  return hops;
}

}  // namespace

TiersParams parse_tiers(std::string_view text, const std::string& option) {
  TiersParams p;
  std::int64_t* fields[] = {&p.wans,           &p.mans_per_wan,   &p.lans_per_man,
                            &p.wan_nodes,      &p.man_nodes,      &p.lan_nodes,
                            &p.wan_redundancy, &p.man_redundancy, &p.lan_redundancy,
                            &p.man_wan_edges,  &p.lan_man_edges};
  std::size_t count = 0, i = 0;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (true) {
    while (i < text.size() && blank(text[i])) ++i;
    if (i == text.size()) break;
    std::size_t end = i;
    while (end < text.size() && !blank(text[end])) ++end;
    const std::string_view token = text.substr(i, end - i);
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || ptr != token.data() + token.size())
      throw InputError("'" + one_line(token, 64) + "' is not an integer", option);
    if (count < std::size(fields)) *fields[count] = value;
    ++count;
    i = end;
  }
  if (count != std::size(fields))
    throw InputError(
        fmt::format("needs 11 integers NW NM NL SW SM SL RW RM RL RMW RLM, got {}", count), option);
  return p;
}

std::string format_tiers(const TiersParams& p) {
  return fmt::format("{} {} {} {} {} {} {} {} {} {} {}", p.wans, p.mans_per_wan, p.lans_per_man,
                     p.wan_nodes, p.man_nodes, p.lan_nodes, p.wan_redundancy, p.man_redundancy,
                     p.lan_redundancy, p.man_wan_edges, p.lan_man_edges);
}

void validate(const TiersParams& p) {
  if (p.wans != 1) refuse(fmt::format("NW must be 1 (Tiers builds a single WAN), got {}", p.wans));
  require_range("NM (MANs per WAN)", p.mans_per_wan, 0, kMaxNodes);
  require_range("NL (LANs per MAN)", p.lans_per_man, 0, kMaxNodes);
  const bool mans = p.mans_per_wan > 0, lans = mans && p.lans_per_man > 0;
  require_range("SW (nodes per WAN)", p.wan_nodes, 1, kMaxNetworkNodes);
  require_range("SM (nodes per MAN)", p.man_nodes, mans ? 1 : 0, kMaxNetworkNodes,
                mans ? " when NM > 0" : "");
  require_range("SL (nodes per LAN)", p.lan_nodes, lans ? 1 : 0, kMaxNetworkNodes,
                lans ? " when NM, NL > 0" : "");
  require_range("RW (redundancy inside the WAN)", p.wan_redundancy, 0, kMaxRedundancy);
  require_range("RM (redundancy inside a MAN)", p.man_redundancy, 0, kMaxRedundancy);
  require_range("RL (redundancy inside a LAN)", p.lan_redundancy, 0, kMaxRedundancy);
  if (mans) {
    require_range("RMW (edges from a MAN to the WAN)", p.man_wan_edges, 1,
                  std::min({kMaxRedundancy, p.man_nodes, p.wan_nodes}),
                  " (at most min(10, SM, SW): one per distinct pair of nodes)");
  } else {
    require_range("RMW (edges from a MAN to the WAN)", p.man_wan_edges, 0, kMaxRedundancy);
  }
  if (lans) {
    require_range("RLM (edges from a LAN to its MAN)", p.lan_man_edges, 1,
                  std::min({kMaxRedundancy, p.lan_nodes, p.man_nodes}),
                  " (at most min(10, SL, SM): one per distinct pair of nodes)");
  } else {
    require_range("RLM (edges from a LAN to its MAN)", p.lan_man_edges, 0, kMaxRedundancy);
  }
  if (node_count(p) > kMaxNodes)
    refuse(fmt::format("the platform would have {} nodes, over the limit of {}", node_count(p),
                       kMaxNodes));
  if (!(p.host_probability >= 0.0 && p.host_probability <= 1.0))
    throw InputError(fmt::format("must be in [0, 1], got {}", p.host_probability),
                     "--host-probability");
}

std::int64_t node_count(const TiersParams& p) {
  const std::int64_t mans = p.wans * p.mans_per_wan;
  return p.wans * p.wan_nodes + mans * p.man_nodes + mans * p.lans_per_man * p.lan_nodes;
}

const char* to_string(Level level) {
  switch (level) {
    case Level::wan:
      return "wan";
    case Level::man:
      return "man";
    case Level::lan:
      return "lan";
  }
  return "?";
}

const char* to_string(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::wan:
      return "wan";
    case LinkClass::man:
      return "man";
    case LinkClass::lan:
      return "lan";
    case LinkClass::man_wan:
      return "man-wan";
    case LinkClass::lan_man:
      return "lan-man";
  }
  return "?";
}

const LinkTable& link_table(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::wan:
      return kWanLinks;
    case LinkClass::man:
    case LinkClass::man_wan:
      return kManLinks;
    case LinkClass::lan:
    case LinkClass::lan_man:
      break;
  }
  return kLanLinks;
}

Graph generate_tiers(const TiersParams& params) {
  validate(params);
  return Builder(params).build();
}

std::string node_name(const Node& node) {
  return fmt::format("{}{}-{}", to_string(node.level), node.network, node.member);
}

std::string link_name(const Graph& graph, const Edge& edge) {
  return fmt::format("{}:{}:{}", to_string(edge.link_class),
                     node_name(graph.nodes[static_cast<std::size_t>(edge.a)]),
                     node_name(graph.nodes[static_cast<std::size_t>(edge.b)]));
}

std::vector<std::int64_t> host_indices(const Graph& graph) {
  std::vector<std::int64_t> hosts;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].host) hosts.push_back(static_cast<std::int64_t>(i));
  return hosts;
}

std::vector<std::int64_t> hop_distances(const Graph& graph, std::int64_t source) {
  return bfs(graph, incident_edges(graph), source);
}

std::int64_t diameter(const Graph& graph) {
  const auto incident = incident_edges(graph);
  std::int64_t largest = 0;
  for (std::size_t s = 0; s < graph.nodes.size(); ++s) {
    for (std::int64_t h : bfs(graph, incident, static_cast<std::int64_t>(s))) {
      if (h < 0) return -1;
      largest = std::max(largest, h);
    }
  }
  return largest;
}

Routes::Routes(const Graph& graph) : n_(std::ssize(graph.nodes)), around_(graph.nodes.size()) {
  if (n_ > kMaxRoutedNodes)
    throw InputError(
        fmt::format("routes between {} nodes: at most {} (N^3 steps)", n_, kMaxRoutedNodes),
        "--tiers");
  const auto n = static_cast<std::size_t>(n_);
  constexpr std::int32_t kNone = std::numeric_limits<std::int32_t>::max();
  hops_.assign(n * n, kNone);
  predecessor_.assign(n * n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    hops_[i * n + i] = 0;
    predecessor_[i * n + i] = static_cast<std::int32_t>(i);
  }
  for (std::size_t k = 0; k < graph.edges.size(); ++k) {
    const Edge& e = graph.edges[k];
    const auto a = static_cast<std::size_t>(e.a), b = static_cast<std::size_t>(e.b);
    around_[a].push_back({e.b, static_cast<std::int64_t>(k)});
    around_[b].push_back({e.a, static_cast<std::int64_t>(k)});
    hops_[a * n + b] = hops_[b * n + a] = 1;
    predecessor_[a * n + b] = static_cast<std::int32_t>(a);
    predecessor_[b * n + a] = static_cast<std::int32_t>(b);
  }
  // Floyd-Warshall: keep the first strictly shorter route, as SimGrid's Floyd zone does.
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t a = 0; a < n; ++a) {
      const std::int32_t ac = hops_[a * n + c];
      if (ac == kNone) continue;
      for (std::size_t b = 0; b < n; ++b) {
        const std::int32_t cb = hops_[c * n + b];
        if (cb != kNone && ac + cb < hops_[a * n + b]) {
          hops_[a * n + b] = ac + cb;
          predecessor_[a * n + b] = predecessor_[c * n + b];
        }
      }
    }
  }
}

std::int64_t Routes::hops(std::int64_t a, std::int64_t b) const {
  const std::int32_t h = hops_[static_cast<std::size_t>(a * n_ + b)];
  return h == std::numeric_limits<std::int32_t>::max() ? -1 : h;
}

std::vector<std::int64_t> Routes::route(std::int64_t a, std::int64_t b) const {
  std::vector<std::int64_t> edges;
  if (hops(a, b) < 0) return edges;
  for (std::int64_t cur = b; cur != a;) {
    const std::int64_t before = predecessor_[static_cast<std::size_t>(a * n_ + cur)];
    for (const auto& [neighbour, edge] : around_[static_cast<std::size_t>(cur)]) {
      if (neighbour == before) {
        edges.push_back(edge);
        break;
      }
    }
    cur = before;
  }
  std::reverse(edges.begin(), edges.end());
  return edges;
}

RouteCost route_cost(const Graph& graph, const std::vector<std::int64_t>& route) {
  RouteCost cost;
  cost.bandwidth = std::numeric_limits<double>::infinity();
  for (std::int64_t k : route) {
    const Edge& e = graph.edges[static_cast<std::size_t>(k)];
    cost.bandwidth = std::min(cost.bandwidth, e.bandwidth);
    cost.latency += e.latency;
  }
  cost.hops = std::ssize(route);
  return cost;
}

std::vector<RingLinks> ring_links(const Graph& graph, const Routes& routes,
                                  const std::vector<std::int64_t>& ring) {
  const std::size_t p = ring.size();
  std::vector<RingLinks> result(p);
  for (std::size_t i = 0; i < p; ++i) {
    result[i].next = route_cost(graph, routes.route(ring[i], ring[(i + 1) % p]));
    result[i].prev = route_cost(graph, routes.route(ring[i], ring[(i + p - 1) % p]));
  }
  return result;
}

std::vector<std::int64_t> random_ring(const Graph& graph, std::int64_t p, std::uint64_t seed) {
  std::vector<std::int64_t> hosts = host_indices(graph);
  if (p < 2 || p > std::ssize(hosts))
    throw InputError(
        fmt::format("a ring needs 2..{} hosts (the platform's), got {}", std::ssize(hosts), p),
        "--processors");
  Random rng(seed, Stream::ring);
  for (std::int64_t i = 0; i < p; ++i) {
    const std::int64_t j = i + rng.below(std::ssize(hosts) - i);
    std::swap(hosts[static_cast<std::size_t>(i)], hosts[static_cast<std::size_t>(j)]);
  }
  hosts.resize(static_cast<std::size_t>(p));
  return hosts;
}

}  // namespace redist::sim
