#include "sim/platform_xml.hpp"

#include <fmt/format.h>

namespace redist::sim {

std::string platform_xml(const Graph& graph) {
  const TiersParams& p = graph.params;
  std::string out =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n";
  out += fmt::format(
      "  <!-- Tiers-like platform (redist-platform, docs/ring-sim.md): tiers {}, seed {}, host "
      "probability {}. {} nodes, {} hosts, {} links. -->\n",
      format_tiers(p), p.seed, p.host_probability, graph.nodes.size(), host_indices(graph).size(),
      graph.edges.size());
  out += "  <zone id=\"tiers\" routing=\"Floyd\">\n";
  for (const Node& n : graph.nodes) {
    if (n.host) {
      out += fmt::format("    <host id=\"{}\" speed=\"{:.6g}Mf\"/>\n", node_name(n), n.speed);
    } else {
      out += fmt::format("    <router id=\"{}\"/>\n", node_name(n));
    }
  }
  for (const Edge& e : graph.edges) {
    out += fmt::format("    <link id=\"{}\" bandwidth=\"{:.6g}MBps\" latency=\"{:.6g}ms\"/>\n",
                       link_name(graph, e), e.bandwidth / 1e6, e.latency * 1e3);
  }
  for (const Edge& e : graph.edges) {
    out += fmt::format("    <route src=\"{}\" dst=\"{}\"><link_ctn id=\"{}\"/></route>\n",
                       node_name(graph.nodes[static_cast<std::size_t>(e.a)]),
                       node_name(graph.nodes[static_cast<std::size_t>(e.b)]), link_name(graph, e));
  }
  out += "  </zone>\n</platform>\n";
  return out;
}

}  // namespace redist::sim
