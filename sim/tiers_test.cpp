#include "sim/tiers.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace redist::sim {
namespace {

TiersParams params(const char* tiers, std::uint64_t seed = 1, double host_probability = 0.7) {
  TiersParams p = parse_tiers(tiers);
  p.seed = seed;
  p.host_probability = host_probability;
  return p;
}

std::map<LinkClass, std::int64_t> class_counts(const Graph& g) {
  std::map<LinkClass, std::int64_t> counts;
  for (const Edge& e : g.edges) ++counts[e.link_class];
  return counts;
}

std::int64_t count_level(const Graph& g, Level level) {
  return std::count_if(g.nodes.begin(), g.nodes.end(),
                       [&](const Node& n) { return n.level == level; });
}

// (SW - 1) + NM (SM - 1) + NM NL (SL - 1) + NM RMW + NM NL RLM: the edges without redundancy.
std::int64_t base_edges(const TiersParams& p) {
  const std::int64_t mans = p.mans_per_wan, lans = mans * p.lans_per_man;
  return (p.wan_nodes - 1) + mans * (p.man_nodes - 1) + lans * (p.lan_nodes - 1) +
         mans * p.man_wan_edges + lans * p.lan_man_edges;
}

std::string error_of(const TiersParams& p) {
  try {
    generate_tiers(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// -- Counts
// ----------------------------------------------------------------------------------------

TEST(Tiers, DefaultsAreRrv04PlatformWith185NodesAnd192Edges) {
  const Graph g = generate_tiers(TiersParams{});
  EXPECT_EQ(format_tiers(g.params), "1 5 5 10 10 5 2 1 1 2 1");
  EXPECT_EQ(g.params.seed, 2u);
  EXPECT_EQ(g.nodes.size(), 185u);
  EXPECT_EQ(count_level(g, Level::wan), 10);
  EXPECT_EQ(count_level(g, Level::man), 50);
  EXPECT_EQ(count_level(g, Level::lan), 125);
  EXPECT_EQ(g.edges.size(), 192u);
  const auto counts = class_counts(g);
  EXPECT_EQ(counts.at(LinkClass::wan), 9 + 3);  // the tree and 3 redundancy edges
  EXPECT_EQ(counts.at(LinkClass::man), 5 * 9);
  EXPECT_EQ(counts.at(LinkClass::lan), 25 * 4);
  EXPECT_EQ(counts.at(LinkClass::man_wan), 5 * 2);
  EXPECT_EQ(counts.at(LinkClass::lan_man), 25 * 1);
  EXPECT_EQ(host_indices(g).size(), 88u);
}

// The distribution docs/ring-sim.md gives: only the WAN's redundancy edges depend on the seed.
TEST(Tiers, EdgeCountsOverThousandSeeds) {
  std::map<std::size_t, int> edges;
  double hosts = 0;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    const Graph g = generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", seed));
    ++edges[g.edges.size()];
    hosts += static_cast<double>(host_indices(g).size());
  }
  const std::map<std::size_t, int> expected{
      {190, 6}, {191, 153}, {192, 445}, {193, 352}, {194, 44}};
  EXPECT_EQ(edges, expected);
  EXPECT_NEAR(hosts / 1000, 87.7, 0.1);  // 125 x 0.7 = 87.5 expected
}

TEST(Tiers, WithoutRedundancyTheEdgeCountIsTheFormula) {
  for (const char* tiers : {"1 4 3 8 6 4 1 1 1 2 2", "1 3 0 20 10 0 0 0 0 1 1",
                            "1 2 2 5 5 5 1 0 1 3 3", "1 0 0 30 0 0 1 1 1 1 1"}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      const Graph g = generate_tiers(params(tiers, seed));
      EXPECT_EQ(std::ssize(g.nodes), node_count(g.params)) << tiers;
      EXPECT_EQ(std::ssize(g.edges), base_edges(g.params)) << tiers << " seed " << seed;
    }
  }
}

TEST(Tiers, RedundancyRaisesEveryDegreeInsideItsNetwork) {
  const Graph g = generate_tiers(params("1 4 3 12 9 6 3 2 2 2 2", 5));
  std::map<std::pair<Level, std::int64_t>, std::int64_t> size;
  for (const Node& n : g.nodes) ++size[{n.level, n.network}];
  std::vector<std::int64_t> inner(g.nodes.size(), 0);
  for (const Edge& e : g.edges) {
    if (e.link_class == LinkClass::man_wan || e.link_class == LinkClass::lan_man) continue;
    ++inner[static_cast<std::size_t>(e.a)];
    ++inner[static_cast<std::size_t>(e.b)];
  }
  const std::map<Level, std::int64_t> r{{Level::wan, 3}, {Level::man, 2}, {Level::lan, 2}};
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    EXPECT_GE(inner[i], std::min(r.at(n.level), size[{n.level, n.network}] - 1)) << node_name(n);
  }
  EXPECT_GT(std::ssize(g.edges), base_edges(g.params));
}

TEST(Tiers, RedundancyAtLeastTheSizeMakesANetworkComplete) {
  const Graph g = generate_tiers(params("1 0 0 6 0 0 10 1 1 1 1"));
  EXPECT_EQ(g.edges.size(), 15u);  // 6 x 5 / 2
}

TEST(Tiers, AttachmentsEnterTheParentThroughDistinctNodes) {
  const Graph g = generate_tiers(params("1 6 4 10 8 5 2 1 1 3 2", 9));
  std::map<std::int64_t, std::set<std::int64_t>> child_ends, parent_ends;
  std::map<std::int64_t, int> per_network;
  for (const Edge& e : g.edges) {
    if (e.link_class != LinkClass::man_wan && e.link_class != LinkClass::lan_man) continue;
    const Node& child = g.nodes[static_cast<std::size_t>(e.a)];
    const Node& parent = g.nodes[static_cast<std::size_t>(e.b)];
    EXPECT_EQ(child.level, e.link_class == LinkClass::man_wan ? Level::man : Level::lan);
    EXPECT_EQ(parent.level, e.link_class == LinkClass::man_wan ? Level::wan : Level::man);
    if (child.level == Level::lan) {
      EXPECT_EQ(parent.network, child.network / 4);
    }
    const std::int64_t key = (child.level == Level::man ? 0 : 1000) + child.network;
    ++per_network[key];
    EXPECT_TRUE(child_ends[key].insert(e.a).second);
    EXPECT_TRUE(parent_ends[key].insert(e.b).second);
  }
  EXPECT_EQ(per_network.size(), 6u + 24u);
  for (const auto& [key, count] : per_network) EXPECT_EQ(count, key < 1000 ? 3 : 2);
}

// -- Structure
// -------------------------------------------------------------------------------------

TEST(Tiers, GraphsAreSimpleAndConnected) {
  for (const char* tiers :
       {"1 5 5 10 10 5 2 1 1 2 1", "1 10 5 10 10 5 2 1 1 2 1", "1 8 3 10 20 3 3 2 1 1 1",
        "1 3 0 20 10 0 3 2 1 1 1", "1 0 0 30 0 0 3 1 1 1 1", "1 1 1 1 1 1 0 0 0 1 1"}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const Graph g = generate_tiers(params(tiers, seed));
      std::set<std::pair<std::int64_t, std::int64_t>> seen;
      for (const Edge& e : g.edges) {
        EXPECT_NE(e.a, e.b);
        EXPECT_TRUE(seen.insert(std::minmax(e.a, e.b)).second) << link_name(g, e);
      }
      EXPECT_GE(diameter(g), 0) << tiers << " seed " << seed;
    }
  }
}

TEST(Tiers, OneNodePerNetwork) {
  const Graph g = generate_tiers(params("1 1 1 1 1 1 0 0 0 1 1", 1, 1.0));
  ASSERT_EQ(g.nodes.size(), 3u);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(link_name(g, g.edges[0]), "man-wan:man0-0:wan0-0");
  EXPECT_EQ(link_name(g, g.edges[1]), "lan-man:lan0-0:man0-0");
  EXPECT_EQ(host_indices(g), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(diameter(g), 2);
  const Graph single = generate_tiers(params("1 0 0 1 0 0 0 0 0 0 0"));
  EXPECT_EQ(single.nodes.size(), 1u);
  EXPECT_TRUE(single.edges.empty());
  EXPECT_EQ(diameter(single), 0);
}

TEST(Tiers, RedundancyZeroIsRedundancyOne) {
  const Graph zero = generate_tiers(params("1 3 2 8 6 4 0 0 0 1 1", 4));
  const Graph one = generate_tiers(params("1 3 2 8 6 4 1 1 1 1 1", 4));
  ASSERT_EQ(zero.edges.size(), one.edges.size());
  for (std::size_t k = 0; k < zero.edges.size(); ++k)
    EXPECT_EQ(link_name(zero, zero.edges[k]), link_name(one, one.edges[k]));
}

TEST(Tiers, LanIsAStarAroundTheNodeNearestItsCentroid) {
  const Graph g = generate_tiers(params("1 2 3 4 4 6 1 1 1 1 1", 3));
  for (std::int64_t lan = 0; lan < 6; ++lan) {
    std::map<std::int64_t, int> degree;
    double cx = 0, cy = 0;
    std::vector<std::int64_t> members;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].level != Level::lan || g.nodes[i].network != lan) continue;
      members.push_back(static_cast<std::int64_t>(i));
      cx += static_cast<double>(g.nodes[i].x) / 6;
      cy += static_cast<double>(g.nodes[i].y) / 6;
    }
    for (const Edge& e : g.edges) {
      if (e.link_class != LinkClass::lan) continue;
      if (g.nodes[static_cast<std::size_t>(e.a)].network != lan) continue;
      ++degree[e.a];
      ++degree[e.b];
    }
    const auto centre = std::max_element(degree.begin(), degree.end(), [](auto& x, auto& y) {
                          return x.second < y.second;
                        })->first;
    EXPECT_EQ(degree[centre], 5);
    const auto d = [&](std::int64_t i) {
      return std::hypot(static_cast<double>(g.nodes[static_cast<std::size_t>(i)].x) - cx,
                        static_cast<double>(g.nodes[static_cast<std::size_t>(i)].y) - cy);
    };
    for (std::int64_t m : members) EXPECT_LE(d(centre), d(m));
  }
}

// -- Hosts and link values
// -------------------------------------------------------------------------

TEST(Tiers, HostsAreLanNodesWithMeasuredMachineSpeeds) {
  const Graph g = generate_tiers(TiersParams{});
  const auto& speeds = balance::kMachineSpeeds;
  for (const Node& n : g.nodes) {
    if (!n.host) {
      EXPECT_EQ(n.speed, 0.0);
      continue;
    }
    EXPECT_EQ(n.level, Level::lan);
    EXPECT_NE(std::find(speeds.begin(), speeds.end(), n.speed), speeds.end()) << n.speed;
  }
  EXPECT_TRUE(host_indices(generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", 2, 0.0))).empty());
  EXPECT_EQ(host_indices(generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", 2, 1.0))).size(), 125u);
}

TEST(Tiers, LinkValuesComeFromTheirClassTable) {
  const Graph g = generate_tiers(params("1 10 5 10 10 5 2 1 1 2 1", 3));
  std::map<LinkClass, std::set<double>> bandwidths;
  for (const Edge& e : g.edges) {
    const LinkTable& t = link_table(e.link_class);
    EXPECT_NE(std::find(t.bandwidth.begin(), t.bandwidth.end(), e.bandwidth), t.bandwidth.end());
    EXPECT_NE(std::find(t.latency.begin(), t.latency.end(), e.latency), t.latency.end());
    bandwidths[e.link_class].insert(e.bandwidth);
  }
  EXPECT_EQ(&link_table(LinkClass::man_wan), &kManLinks);
  EXPECT_EQ(&link_table(LinkClass::lan_man), &kLanLinks);
  EXPECT_EQ(bandwidths[LinkClass::lan].size(), 5u);  // 250 draws reach every value
  EXPECT_EQ(bandwidths[LinkClass::man].size(), 5u);
}

// The tables span the measured ranges: min, median and max as documented; the other two values are
// geometric means (3 digits); latencies log-spaced (2 digits).
TEST(Tiers, LinkTablesMatchTheMeasuredRanges) {
  struct Known {
    const LinkTable& table;
    double bw_min, bw_median, bw_max, lat_min, lat_max;
  };
  for (const Known& k : {Known{kWanLinks, 34e6, 119e6, 255e6, 0.06e-3, 7.4e-3},
                         Known{kManLinks, 8e6, 11.7e6, 41e6, 0.06e-3, 296e-3},
                         Known{kLanLinks, 0.12e6, 2.2e6, 7.5e6, 0.006e-3, 88e-3}}) {
    const auto& b = k.table.bandwidth;
    EXPECT_EQ(b[0], k.bw_min);
    EXPECT_EQ(b[2], k.bw_median);
    EXPECT_EQ(b[4], k.bw_max);
    EXPECT_NEAR(b[1] / std::sqrt(b[0] * b[2]), 1.0, 0.005);
    EXPECT_NEAR(b[3] / std::sqrt(b[2] * b[4]), 1.0, 0.005);
    const auto& l = k.table.latency;
    EXPECT_EQ(l[0], k.lat_min);
    EXPECT_EQ(l[4], k.lat_max);
    const double step = std::pow(k.lat_max / k.lat_min, 0.25);
    for (int i = 1; i < 4; ++i) EXPECT_NEAR(l[i] / (k.lat_min * std::pow(step, i)), 1.0, 0.05);
  }
}

// -- Determinism
// -----------------------------------------------------------------------------------

void expect_same(const Graph& x, const Graph& y) {
  ASSERT_EQ(x.nodes.size(), y.nodes.size());
  ASSERT_EQ(x.edges.size(), y.edges.size());
  for (std::size_t i = 0; i < x.nodes.size(); ++i) {
    EXPECT_EQ(x.nodes[i].x, y.nodes[i].x);
    EXPECT_EQ(x.nodes[i].y, y.nodes[i].y);
    EXPECT_EQ(x.nodes[i].host, y.nodes[i].host);
    EXPECT_EQ(x.nodes[i].speed, y.nodes[i].speed);
  }
  for (std::size_t k = 0; k < x.edges.size(); ++k) {
    EXPECT_EQ(link_name(x, x.edges[k]), link_name(y, y.edges[k]));
    EXPECT_EQ(x.edges[k].bandwidth, y.edges[k].bandwidth);
    EXPECT_EQ(x.edges[k].latency, y.edges[k].latency);
  }
}

TEST(Tiers, SameParametersSameGraph) {
  expect_same(generate_tiers(params("1 8 3 10 20 3 3 2 1 1 1", 11)),
              generate_tiers(params("1 8 3 10 20 3 3 2 1 1 1", 11)));
  const Graph a = generate_tiers(params("1 8 3 10 20 3 3 2 1 1 1", 11));
  const Graph b = generate_tiers(params("1 8 3 10 20 3 3 2 1 1 1", 12));
  EXPECT_NE(a.nodes[0].x, b.nodes[0].x);
}

// Values fixed once: a change of compiler, library or platform must not change the graph.
TEST(Tiers, DefaultPlatformIsTheSameEverywhere) {
  const Graph g = generate_tiers(TiersParams{});
  EXPECT_EQ(g.nodes[0].x, 2355);
  EXPECT_EQ(g.nodes[0].y, 789);
  EXPECT_EQ(g.nodes[184].x, 7087);
  EXPECT_EQ(g.nodes[184].y, 1418);
  EXPECT_EQ(link_name(g, g.edges[0]), "wan:wan0-0:wan0-3");
  EXPECT_EQ(link_name(g, g.edges[191]), "lan-man:lan24-0:man4-6");
  double bandwidth = 0, latency = 0, speed = 0;
  for (const Edge& e : g.edges) {
    bandwidth += e.bandwidth;
    latency += e.latency;
  }
  for (const Node& n : g.nodes) speed += n.speed;
  EXPECT_DOUBLE_EQ(bandwidth, 2666.91e6);
  EXPECT_NEAR(latency, 6.952478, 1e-12);
  EXPECT_EQ(speed, 7344);
  EXPECT_EQ(diameter(g), 21);
}

TEST(Tiers, HostProbabilityMovesNoNodeAndNoLinkValue) {
  const Graph a = generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", 2, 0.7));
  Graph b = generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", 2, 0.3));
  EXPECT_LT(host_indices(b).size(), host_indices(a).size());
  for (std::size_t i = 0; i < b.nodes.size(); ++i) {
    b.nodes[i].host = a.nodes[i].host;
    b.nodes[i].speed = a.nodes[i].speed;
  }
  expect_same(a, b);
}

// -- Routes
// ----------------------------------------------------------------------------------------

// Every host pair has a route: contiguous from a to b, as short as a breadth-first search finds.
TEST(Tiers, RoutesJoinEveryPairOfHostsInFewestHops) {
  for (std::uint64_t seed : {2, 7}) {
    const Graph g = generate_tiers(params("1 5 5 10 10 5 2 1 1 2 1", seed));
    const Routes routes(g);
    const auto hosts = host_indices(g);
    for (std::int64_t a : hosts) {
      const auto hops = hop_distances(g, a);
      for (std::int64_t b : hosts) {
        const auto route = routes.route(a, b);
        ASSERT_EQ(std::ssize(route), hops[static_cast<std::size_t>(b)]);
        EXPECT_EQ(routes.hops(a, b), hops[static_cast<std::size_t>(b)]);
        std::int64_t at = a;
        for (std::int64_t k : route) {
          const Edge& e = g.edges[static_cast<std::size_t>(k)];
          ASSERT_TRUE(e.a == at || e.b == at);
          at = e.a == at ? e.b : e.a;
        }
        EXPECT_EQ(at, b);
        if (a != b) {
          EXPECT_FALSE(route.empty());
        }
      }
    }
  }
}

// A route's edge classes: LAN edges only at its ends, one LAN-MAN edge out of the source's LAN
// and one into the destination's (none inside one LAN); with one attachment per network (RMW =
// RLM = 1), the levels climb then descend: LAN, LAN-MAN, MAN, MAN-WAN, WAN, and back.
int rank(LinkClass c) {
  switch (c) {
    case LinkClass::lan:
      return 0;
    case LinkClass::lan_man:
      return 1;
    case LinkClass::man:
      return 2;
    case LinkClass::man_wan:
      return 3;
    case LinkClass::wan:
      return 4;
  }
  return -1;
}

TEST(Tiers, RouteClassesFollowTheHierarchy) {
  for (const char* tiers : {"1 5 5 10 10 5 2 1 1 2 1", "1 6 4 12 8 5 2 2 1 1 1"}) {
    const Graph g = generate_tiers(params(tiers, 3));
    const bool single_attachments = g.params.man_wan_edges == 1;
    const Routes routes(g);
    const auto hosts = host_indices(g);
    for (std::int64_t a : hosts) {
      for (std::int64_t b : hosts) {
        if (a == b) continue;
        std::vector<int> ranks;
        for (std::int64_t k : routes.route(a, b))
          ranks.push_back(rank(g.edges[static_cast<std::size_t>(k)].link_class));
        const bool same_lan = g.nodes[static_cast<std::size_t>(a)].network ==
                              g.nodes[static_cast<std::size_t>(b)].network;
        const auto lan_man = std::count(ranks.begin(), ranks.end(), 1);
        EXPECT_EQ(lan_man, same_lan ? 0 : 2);
        // LAN edges only before the first LAN-MAN edge and after the last.
        const auto first = std::find(ranks.begin(), ranks.end(), 1);
        const auto last = std::find(ranks.rbegin(), ranks.rend(), 1).base();
        if (first != ranks.end()) {
          EXPECT_EQ(std::count(first, last, 0), 0);
        }
        if (single_attachments) {
          const auto top = std::max_element(ranks.begin(), ranks.end());
          EXPECT_TRUE(std::is_sorted(ranks.begin(), top + 1));
          EXPECT_TRUE(std::is_sorted(top, ranks.end(), std::greater<>()));
        }
      }
    }
  }
}

TEST(Tiers, RingLinksTakeTheSlowestLinkOfEachRoute) {
  const Graph g = generate_tiers(TiersParams{});
  const Routes routes(g);
  const auto ring = random_ring(g, 8, 1);
  ASSERT_EQ(ring.size(), 8u);
  EXPECT_EQ(std::set<std::int64_t>(ring.begin(), ring.end()).size(), 8u);
  const auto links = ring_links(g, routes, ring);
  for (std::size_t i = 0; i < 8; ++i) {
    const auto route = routes.route(ring[i], ring[(i + 1) % 8]);
    double slowest = 1e300, latency = 0;
    for (std::int64_t k : route) {
      slowest = std::min(slowest, g.edges[static_cast<std::size_t>(k)].bandwidth);
      latency += g.edges[static_cast<std::size_t>(k)].latency;
    }
    EXPECT_EQ(links[i].next.bandwidth, slowest);
    EXPECT_DOUBLE_EQ(links[i].next.latency, latency);
    EXPECT_EQ(links[i].next.hops, std::ssize(route));
    // The way back from the successor is as long (not necessarily the same links).
    EXPECT_EQ(links[(i + 1) % 8].prev.hops, links[i].next.hops);
    EXPECT_LE(links[i].next.bandwidth, 7.5e6);  // a host's route starts with LAN-class links
  }
  EXPECT_EQ(random_ring(g, 8, 1), ring);
  EXPECT_NE(random_ring(g, 8, 2), ring);
}

// -- Refusals
// --------------------------------------------------------------------------------------

TEST(Tiers, ParseTiersNeedsElevenIntegers) {
  EXPECT_EQ(format_tiers(parse_tiers("  1 5 5\t10 10 5 2 1 1 2 1 ")), "1 5 5 10 10 5 2 1 1 2 1");
  for (const char* bad :
       {"1 5 5 10 10 5 2 1 1 2", "1 5 5 10 10 5 2 1 1 2 1 1", "", "1 5 5 10 10 5 2 1 1 2 x",
        "1 5 5 10 10 5 2 1 1 2 1.5", "1 5 5 10 10 5 2 1 1 2 99999999999999999999"}) {
    try {
      parse_tiers(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), "--tiers") << bad;
    }
  }
}

TEST(Tiers, RefusesParametersOutsideTheRules) {
  const std::pair<const char*, const char*> cases[] = {
      {"2 5 5 10 10 5 2 1 1 2 1", "NW must be 1"},
      {"0 5 5 10 10 5 2 1 1 2 1", "NW must be 1"},
      {"1 -1 5 10 10 5 2 1 1 2 1", "NM (MANs per WAN) must be in 0..10000"},
      {"1 5 5 0 10 5 2 1 1 2 1", "SW (nodes per WAN) must be in 1..1000"},
      {"1 5 5 1001 10 5 2 1 1 2 1", "SW (nodes per WAN) must be in 1..1000"},
      {"1 5 5 10 0 5 2 1 1 2 1", "SM (nodes per MAN) must be in 1..1000 when NM > 0"},
      {"1 5 5 10 10 0 2 1 1 2 1", "SL (nodes per LAN) must be in 1..1000 when NM, NL > 0"},
      {"1 5 5 10 10 5 11 1 1 2 1", "RW (redundancy inside the WAN) must be in 0..10"},
      {"1 5 5 10 10 5 2 -1 1 2 1", "RM (redundancy inside a MAN) must be in 0..10"},
      {"1 5 5 10 10 5 2 1 1 0 1", "RMW (edges from a MAN to the WAN) must be in 1..10"},
      {"1 5 5 10 3 5 2 1 1 4 1", "RMW (edges from a MAN to the WAN) must be in 1..3"},
      {"1 5 5 10 10 5 2 1 1 2 0", "RLM (edges from a LAN to its MAN) must be in 1..5"},
      {"1 5 5 10 10 2 2 1 1 2 3", "RLM (edges from a LAN to its MAN) must be in 1..2"},
      {"1 100 100 10 10 10 2 1 1 2 1",
       "the platform would have 101010 nodes, over the limit of 10000"},
      {"1 10000 10000 1000 1000 1000 2 1 1 2 1", "over the limit of 10000"},
  };
  for (const auto& [tiers, message] : cases) {
    const std::string error = error_of(params(tiers));
    EXPECT_NE(error.find(message), std::string::npos) << tiers << ": " << error;
    EXPECT_NE(error.find("(at --tiers)"), std::string::npos) << error;
  }
  for (double p : {-0.1, 1.5, std::nan("")}) {
    EXPECT_NE(error_of(params("1 5 5 10 10 5 2 1 1 2 1", 1, p)).find("(at --host-probability)"),
              std::string::npos);
  }
  // Parameters that play no part are free: the README's WAN alone.
  EXPECT_EQ(error_of(params("1 0 0 30 0 0 3 1 1 0 0")), "no error");
}

TEST(Tiers, LargestPlatformIsBuiltAndOnlyRoutesAreRefused) {
  const Graph g = generate_tiers(params("1 10 10 1000 100 80 2 2 2 2 2"));
  EXPECT_EQ(g.nodes.size(), 10'000u);
  EXPECT_GE(diameter(g), 0);
  try {
    Routes routes(g);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 2000"), std::string::npos);
  }
  EXPECT_THROW(random_ring(g, 1, 1), InputError);
  EXPECT_THROW(random_ring(g, std::ssize(host_indices(g)) + 1, 1), InputError);
}

}  // namespace
}  // namespace redist::sim
