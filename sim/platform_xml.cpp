#include "sim/platform_xml.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace redist::sim {

std::string machine_pstates() {
  std::string list;
  for (double speed : balance::kMachineSpeeds)
    list += fmt::format("{}{:.6g}Mf", list.empty() ? "" : ",", speed);
  return list;
}

std::size_t pstate_of(double speed) {
  const auto& speeds = balance::kMachineSpeeds;
  const auto it = std::find(speeds.begin(), speeds.end(), speed);
  if (it == speeds.end())
    throw InputError(fmt::format("{} Mflop/s is not one of the machines' speeds", speed),
                     "--speed");
  return static_cast<std::size_t>(std::distance(speeds.begin(), it));
}

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
  const std::string pstates = machine_pstates();
  for (const Node& n : graph.nodes) {
    if (n.host) {
      out += fmt::format("    <host id=\"{}\" speed=\"{}\" pstate=\"{}\"/>\n", node_name(n),
                         pstates, pstate_of(n.speed));
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
