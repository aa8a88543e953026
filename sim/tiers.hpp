// Tiers-like random platforms for RRV04 §8 (docs/ring-sim.md, "The platform"): the three-level
// Internet model of Doar's Tiers generator (M. Doar, Globecom 1996; K. Calvert, M. Doar and
// E. Zegura, IEEE Communications Magazine 1997), rebuilt from its published description, with the
// hosts, CPU speeds and link classes of RRV04's platform.
//
// Parameters, in the order of Tiers' command line: NW NM NL SW SM SL RW RM RL RMW RLM = WANs, MANs
// per WAN, LANs per MAN; nodes per WAN, MAN, LAN; redundancy inside a WAN, a MAN, a LAN; edges
// from each MAN to its WAN, from each LAN to its MAN. Tiers builds a single WAN: NW must be 1.
// Rules, in the order they run (node indices: the WAN's nodes, then each MAN's, then each LAN's):
//  1. Placement, on an integer grid. The WAN's nodes uniform in the square [0, 10000)^2. Each MAN
//     has a square of side 2000 whose lower corner is uniform in the WAN's square; each LAN a
//     square of side 400 whose lower corner is uniform in its MAN's square; a network's nodes are
//     uniform in its square.
//  2. Spanning structure. A WAN or a MAN: the Euclidean minimum spanning tree of its nodes (Prim
//     from its first node: the node nearest the tree joins next, ties to the lower index, through
//     its nearest tree node, ties to the one that joined first). A LAN: a star whose centre is
//     the node nearest the LAN's centroid (ties: the lower index).
//  3. Redundancy R inside a network (RW, RM, RL): each node in index order, while its degree in
//     the network is below R, gains an edge to the nearest node of its network that is not yet a
//     neighbour (ties: the lower index). R <= 1 adds nothing; R >= s - 1 makes a network of s
//     nodes complete. How many edges this adds depends on the placement (a tree's leaves).
//  4. Attachments: RMW edges from each MAN to its WAN, RLM edges from each LAN to its MAN. The
//     (child node, parent node) pairs are taken by increasing distance (ties: child index, then
//     parent index), skipping a pair whose child node or parent node is already attached, so
//     that the edges enter the parent through distinct nodes. Needs 1 <= RMW <= min(SM, SW) and
//     1 <= RLM <= min(SL, SM).
//  5. Hosts: each LAN node, in index order, is a host with probability host_probability; every
//     other node is a router. A host's speed (Mflop/s) is drawn uniformly among
//     balance::kMachineSpeeds.
//  6. Links: each edge's bandwidth and latency are drawn independently and uniformly among the
//     five values of its class's table (kWanLinks, kManLinks, kLanLinks); a MAN-WAN edge uses the
//     MAN table, a LAN-MAN edge the LAN table (the slower of the two networks it joins).
// Randomness: three std::mt19937_64 streams, each seeded by std::seed_seq{low 32 bits of seed,
// high 32 bits, stream} (1 placement, 2 hosts, 3 links), own integer-to-real conversions, and
// distances compared exactly on integers: the same graph on every platform, and a change of
// host_probability moves no node and changes no link value.
// Edge count: (SW - 1) + NM (SM - 1) + NM NL (SL - 1) + NM RMW + NM NL RLM + the redundancy edges
// of rule 3. With 1 5 5 10 10 5 2 1 1 2 1 (SimGrid's 2005 Tiers platform, very likely RRV04's):
// 185 nodes (10 WAN, 50 MAN, 125 LAN) and 189 + x edges, x the edges RW = 2 adds to the 10-node
// WAN tree: x = 3 (192 edges) for 445 of the seeds 1..1000, the most frequent value (1 to 5 for
// the others: docs/ring-sim.md). The default seed, 2, is the first to give 192 (and 88 hosts).
//
// Routes: between every pair of nodes, a route with the fewest hops. Among equal-hop routes, the
// one the Floyd-Warshall algorithm keeps when it takes the intermediate nodes in index order and
// replaces a route only by a strictly shorter one (the node before b on the new route from a
// being the one before b on the route from the intermediate). SimGrid's Floyd zone does exactly
// this with its netpoints, which platform_xml.hpp declares in node order, so both choose the same
// routes (platform_check.cpp verifies it). The route from a to b need not be the reverse of the
// route from b to a.
// Guarantees: the graph is simple (no loop, no parallel edge) and connected; every host is a LAN
// node; generate_tiers refuses (InputError at "--tiers") any parameter outside the limits below.
// Complexity, N nodes, S the largest network, R the largest redundancy: generation O(N S (R + 1));
// hop distances O(N + E) per source; Routes O(N^3) time and O(N^2) memory.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redist::sim {

// Limits: N at most kMaxNodes (SimGrid's Floyd zone keeps N x N tables and seals in N^3 steps;
// a larger platform needs another zone layout), each network at most kMaxNetworkNodes nodes, each
// redundancy at most kMaxRedundancy. Routes are refused above kMaxRoutedNodes (N^3 steps).
inline constexpr std::int64_t kMaxNodes = 10'000;
inline constexpr std::int64_t kMaxNetworkNodes = 1'000;
inline constexpr std::int64_t kMaxRedundancy = 10;
inline constexpr std::int64_t kMaxRoutedNodes = 2'000;

struct TiersParams {
  std::int64_t wans = 1;            // NW
  std::int64_t mans_per_wan = 5;    // NM
  std::int64_t lans_per_man = 5;    // NL
  std::int64_t wan_nodes = 10;      // SW
  std::int64_t man_nodes = 10;      // SM
  std::int64_t lan_nodes = 5;       // SL
  std::int64_t wan_redundancy = 2;  // RW
  std::int64_t man_redundancy = 1;  // RM
  std::int64_t lan_redundancy = 1;  // RL
  std::int64_t man_wan_edges = 2;   // RMW
  std::int64_t lan_man_edges = 1;   // RLM
  std::uint64_t seed = 2;           // the first seed giving 192 edges with the default counts
  double host_probability = 0.7;
};

// "NW NM NL SW SM SL RW RM RL RMW RLM" (11 integers separated by spaces) into the counts of a
// default TiersParams; InputError ("--tiers") when it is not 11 integers.
TiersParams parse_tiers(std::string_view text, const std::string& option = "--tiers");
// The 11 numbers in Tiers' order, separated by spaces.
std::string format_tiers(const TiersParams& params);
// InputError when a parameter is outside the rules above: at "--tiers" for the 11 numbers,
// "--host-probability" for a probability outside [0, 1].
void validate(const TiersParams& params);
// NW SW + NW NM SM + NW NM NL SL, after validate.
std::int64_t node_count(const TiersParams& params);

enum class Level { wan, man, lan };
// Tiers' classification of edges: inside a WAN, a MAN or a LAN, or joining a MAN to its WAN or a
// LAN to its MAN.
enum class LinkClass { wan, man, lan, man_wan, lan_man };
const char* to_string(Level level);
const char* to_string(LinkClass link_class);

// Link values of one class (RRV04 §8: values measured with pathchar between ENS Lyon and sites in
// France, the USA and Japan; the ranges and medians of SimGrid's 2005 Tiers platform, in bytes/s
// and seconds, 1 MB = 10^6 bytes). Bandwidths: the minimum, the geometric mean of the minimum and
// the median, the median, the geometric mean of the median and the maximum, the maximum (the two
// means rounded to 3 significant digits). Latencies: five values evenly spaced on a log scale
// from the minimum to the maximum (the three inner ones rounded to 2 significant digits).
struct LinkTable {
  std::array<double, 5> bandwidth;  // bytes/s
  std::array<double, 5> latency;    // s
};
inline constexpr LinkTable kWanLinks{{34e6, 63.6e6, 119e6, 174e6, 255e6},
                                     {0.06e-3, 0.2e-3, 0.67e-3, 2.2e-3, 7.4e-3}};
inline constexpr LinkTable kManLinks{{8e6, 9.67e6, 11.7e6, 21.9e6, 41e6},
                                     {0.06e-3, 0.5e-3, 4.2e-3, 35e-3, 296e-3}};
inline constexpr LinkTable kLanLinks{{0.12e6, 0.514e6, 2.2e6, 4.06e6, 7.5e6},
                                     {0.006e-3, 0.066e-3, 0.73e-3, 8e-3, 88e-3}};
// The table an edge of this class draws from (man_wan: kManLinks, lan_man: kLanLinks).
const LinkTable& link_table(LinkClass link_class);

struct Node {
  Level level = Level::wan;
  std::int64_t network = 0;   // index of its network among those of its level
  std::int64_t member = 0;    // index inside its network
  std::int64_t x = 0, y = 0;  // grid position
  bool host = false;
  double speed = 0;  // Mflop/s for a host, 0 for a router
};

struct Edge {
  std::int64_t a = 0, b = 0;  // node indices; for man_wan and lan_man edges, a is the child's node
  LinkClass link_class = LinkClass::wan;
  double bandwidth = 0;  // bytes/s
  double latency = 0;    // s
};

struct Graph {
  TiersParams params;
  std::vector<Node> nodes;
  std::vector<Edge> edges;  // each network's own edges, then its attachment edges, network order
};

Graph generate_tiers(const TiersParams& params);

// "wan0-3", "man2-7", "lan14-0": level, network, member.
std::string node_name(const Node& node);
// "wan:wan0-1:wan0-4", "lan-man:lan7-1:man1-4": class, then the two endpoints.
std::string link_name(const Graph& graph, const Edge& edge);
std::vector<std::int64_t> host_indices(const Graph& graph);

// Hops from `source` to every node (-1: unreachable).
std::vector<std::int64_t> hop_distances(const Graph& graph, std::int64_t source);
// The largest hop distance between two nodes; -1 if the graph is not connected. O(N (N + E)).
std::int64_t diameter(const Graph& graph);

// All-pairs routes (the rule in the header comment). InputError ("--tiers") above
// kMaxRoutedNodes nodes.
class Routes {
 public:
  explicit Routes(const Graph& graph);
  std::int64_t hops(std::int64_t a, std::int64_t b) const;
  // Edge indices from a to b, in order (empty when a == b).
  std::vector<std::int64_t> route(std::int64_t a, std::int64_t b) const;

 private:
  std::int64_t n_ = 0;
  std::vector<std::int32_t> hops_;         // n x n
  std::vector<std::int32_t> predecessor_;  // n x n: the node before b on the route from a to b
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> around_;  // (neighbour, edge)
};

// The paper's model of one route: its slowest link gives the communication speed.
struct RouteCost {
  double bandwidth = 0;  // the smallest bandwidth on the route, bytes/s
  double latency = 0;    // the sum of the latencies, s (SimGrid's end-to-end latency)
  std::int64_t hops = 0;
};
RouteCost route_cost(const Graph& graph, const std::vector<std::int64_t>& route);

// A ring of hosts, ring[i] then ring[i + 1] (ring.size() >= 2): the route from each host to its
// successor and to its predecessor.
struct RingLinks {
  RouteCost next;  // ring[i] -> ring[(i + 1) % p]
  RouteCost prev;  // ring[i] -> ring[(i - 1 + p) % p]
};
std::vector<RingLinks> ring_links(const Graph& graph, const Routes& routes,
                                  const std::vector<std::int64_t>& ring);
// p distinct hosts in random order (RRV04 §8: "We randomly select p processors in the platform to
// build the execution ring"); InputError ("--processors") when p < 2 or p > the host count.
std::vector<std::int64_t> random_ring(const Graph& graph, std::int64_t p, std::uint64_t seed);

}  // namespace redist::sim
