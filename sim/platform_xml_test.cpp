#include "sim/platform_xml.hpp"

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "redist/balance/traces.hpp"

#include "sim/platform_svg.hpp"

namespace redist::sim {
namespace {

Graph graph(const char* tiers, std::uint64_t seed, double host_probability = 0.7) {
  TiersParams p = parse_tiers(tiers);
  p.seed = seed;
  p.host_probability = host_probability;
  return generate_tiers(p);
}

std::vector<std::smatch> matches(const std::string& text, const std::regex& re) {
  std::vector<std::smatch> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back(*it);
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PlatformXml, OneFloydZoneWithEveryNodeLinkAndNeighbourRoute) {
  const Graph g = graph("1 5 5 10 10 5 2 1 1 2 1", 2);
  const std::string xml = platform_xml(g);
  EXPECT_EQ(xml.rfind("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM", 0), 0u);
  EXPECT_NE(xml.find("<platform version=\"4.1\">"), std::string::npos);
  EXPECT_EQ(count(xml, "<zone "), 1u);
  EXPECT_NE(xml.find("<zone id=\"tiers\" routing=\"Floyd\">"), std::string::npos);
  EXPECT_EQ(count(xml, "<host "), 88u);
  EXPECT_EQ(count(xml, "<router "), 185u - 88u);
  EXPECT_EQ(count(xml, "<link "), 192u);
  EXPECT_EQ(count(xml, "<route "), 192u);
  EXPECT_EQ(count(xml, "<link_ctn "), 192u);
  EXPECT_TRUE(xml.ends_with("  </zone>\n</platform>\n"));
}

// Netpoints are declared in node order (SimGrid numbers them so), hosts with the machines'
// speeds as power states, starting at their own.
TEST(PlatformXml, NodesInNodeOrderHostsWithTheirSpeed) {
  const Graph g = graph("1 3 2 6 5 4 2 1 1 2 1", 5);
  const std::string xml = platform_xml(g);
  const std::regex node_re(
      "<(host|router) id=\"([a-z0-9-]+)\"(?: speed=\"([0-9.,Mf]+)\" pstate=\"([0-9]+)\")?/>");
  const auto found = matches(xml, node_re);
  ASSERT_EQ(found.size(), g.nodes.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    const Node& n = g.nodes[i];
    EXPECT_EQ(found[i][2].str(), node_name(n));
    EXPECT_EQ(found[i][1].str(), n.host ? "host" : "router");
    if (n.host) {
      EXPECT_EQ(found[i][3].str(),
                "22Mf,28Mf,35Mf,44Mf,52Mf,63Mf,75Mf,88Mf,104Mf,121Mf,145Mf,172Mf");
      EXPECT_EQ(balance::kMachineSpeeds[std::stoul(found[i][4].str())], n.speed);
    }
  }
}

// Each link is named after its class and endpoints; values in MBps and ms read back to within
// one unit in the last place.
TEST(PlatformXml, OneLinkPerEdgeWithItsValues) {
  const Graph g = graph("1 10 5 10 10 5 2 1 1 2 1", 3);
  const std::string xml = platform_xml(g);
  const std::regex link_re(
      "<link id=\"([a-z:0-9-]+)\" bandwidth=\"([0-9.e+-]+)MBps\" latency=\"([0-9.e+-]+)ms\"/>");
  const auto found = matches(xml, link_re);
  ASSERT_EQ(found.size(), g.edges.size());
  std::set<std::string> names;
  for (std::size_t k = 0; k < found.size(); ++k) {
    const Edge& e = g.edges[k];
    EXPECT_EQ(found[k][1].str(), link_name(g, e));
    EXPECT_NEAR(std::stod(found[k][2].str()) * 1e6, e.bandwidth, 1e-9 * e.bandwidth);
    EXPECT_NEAR(std::stod(found[k][3].str()) * 1e-3, e.latency, 1e-9 * e.latency);
    EXPECT_TRUE(names.insert(found[k][1].str()).second);
  }
  EXPECT_NE(xml.find("bandwidth=\"2.2MBps\""), std::string::npos);  // short, readable numbers
}

TEST(PlatformXml, RoutesJoinNeighboursThroughTheirLink) {
  const Graph g = graph("1 4 3 8 6 4 3 2 2 2 2", 8);
  const std::string xml = platform_xml(g);
  const std::regex route_re(
      "<route src=\"([a-z0-9-]+)\" dst=\"([a-z0-9-]+)\"><link_ctn id=\"([a-z:0-9-]+)\"/></route>");
  const auto found = matches(xml, route_re);
  ASSERT_EQ(found.size(), g.edges.size());
  for (std::size_t k = 0; k < found.size(); ++k) {
    const Edge& e = g.edges[k];
    EXPECT_EQ(found[k][1].str(), node_name(g.nodes[static_cast<std::size_t>(e.a)]));
    EXPECT_EQ(found[k][2].str(), node_name(g.nodes[static_cast<std::size_t>(e.b)]));
    EXPECT_EQ(found[k][3].str(), link_name(g, e));
  }
}

TEST(PlatformXml, SmallestPlatformInFull) {
  const Graph g = graph("1 1 1 1 1 1 0 0 0 1 1", 1, 1.0);
  const std::string expected =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n"
      "  <!-- Tiers-like platform (redist-platform, docs/ring-sim.md): tiers 1 1 1 1 1 1 0 0 0 "
      "1 1, seed 1, host probability 1. 3 nodes, 1 hosts, 2 links. -->\n"
      "  <zone id=\"tiers\" routing=\"Floyd\">\n"
      "    <router id=\"wan0-0\"/>\n"
      "    <router id=\"man0-0\"/>\n"
      "    <host id=\"lan0-0\" "
      "speed=\"22Mf,28Mf,35Mf,44Mf,52Mf,63Mf,75Mf,88Mf,104Mf,121Mf,145Mf,172Mf\" pstate=\"0\"/>\n"
      "    <link id=\"man-wan:man0-0:wan0-0\" bandwidth=\"8MBps\" latency=\"0.06ms\"/>\n"
      "    <link id=\"lan-man:lan0-0:man0-0\" bandwidth=\"4.06MBps\" latency=\"0.006ms\"/>\n"
      "    <route src=\"man0-0\" dst=\"wan0-0\"><link_ctn id=\"man-wan:man0-0:wan0-0\"/></route>\n"
      "    <route src=\"lan0-0\" dst=\"man0-0\"><link_ctn id=\"lan-man:lan0-0:man0-0\"/></route>\n"
      "  </zone>\n"
      "</platform>\n";
  EXPECT_EQ(platform_xml(g), expected);
}

// An XML comment may not hold "--"; the header comment holds only parameters and counts.
TEST(PlatformXml, CommentIsWellFormed) {
  const std::string xml = platform_xml(graph("1 5 5 10 10 5 2 1 1 2 1", 2));
  const auto begin = xml.find("<!--"), end = xml.find("-->");
  ASSERT_NE(begin, std::string::npos);
  EXPECT_EQ(xml.substr(begin + 4, end - begin - 4).find("--"), std::string::npos);
}

TEST(PlatformSvg, DrawsEveryNodeAndEdge) {
  const Graph g = graph("1 5 5 10 10 5 2 1 1 2 1", 2);
  const std::string svg = platform_svg(g);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_EQ(count(svg, "<title>"), g.nodes.size());  // one circle per node (and 4 in the legend)
  EXPECT_EQ(count(svg, "<circle "), g.nodes.size() + 4);
  EXPECT_EQ(count(svg, "<line "), g.edges.size() + 5);  // one line per edge (and 5 in the legend)
  EXPECT_NE(svg.find("185 nodes, 88 hosts, 192 edges"), std::string::npos);
}

}  // namespace
}  // namespace redist::sim
