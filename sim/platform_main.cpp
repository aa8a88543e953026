// redist-platform: a Tiers-like platform for RRV04 §8 (sim/tiers.hpp, docs/ring-sim.md).
//
//   redist-platform [--tiers "1 5 5 10 10 5 2 1 1 2 1"] [--seed 1] [--host-probability 0.7]
//                   [--platform p.xml] [--svg p.svg] [--ring P]
//
// Writes the SimGrid platform file (sim/platform_xml.hpp) and a drawing (sim/platform_svg.hpp)
// when asked, and prints a JSON summary on standard output: the parameters, nodes by level, hosts,
// edges by class, the bandwidths of each class (bytes/s: mean, min, max) and the diameter in hops.
// Exit codes (docs/formats.md): 0 success; 2 bad input or usage, with one line
// `error: <what> (at <where>)` on standard error and nothing on standard output; 3 internal error.
// Limits: at most 10^4 nodes, 1000 nodes per network, redundancies at most 10 (sim/tiers.hpp),
// checked before anything is built. Complexity: O(N (N + E)) for the diameter, the largest step.
#include <exception>
#include <fstream>
#include <iostream>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "redist/common/error.hpp"
#include "sim/platform_options.hpp"
#include "sim/platform_svg.hpp"
#include "sim/platform_xml.hpp"
#include "sim/tool_main.hpp"

namespace {

using Json = nlohmann::ordered_json;
using namespace redist::sim;

void write_file(const std::string& file, const std::string& text, const std::string& option) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (out) out << text;
  out.close();
  if (!out)
    throw redist::InputError("cannot write file '" + redist::one_line(file, 64) + "'", option);
}

Json summary(const Graph& g) {
  Json out;
  out["tiers"] = format_tiers(g.params);
  out["seed"] = g.params.seed;
  out["host_probability"] = g.params.host_probability;
  Json nodes{{"total", g.nodes.size()}};
  for (Level level : {Level::wan, Level::man, Level::lan}) {
    std::size_t count = 0;
    for (const Node& n : g.nodes) count += n.level == level;
    nodes[to_string(level)] = count;
  }
  out["nodes"] = nodes;
  out["hosts"] = host_indices(g).size();
  Json edges{{"total", g.edges.size()}}, bandwidth = Json::object();
  for (LinkClass c :
       {LinkClass::wan, LinkClass::man, LinkClass::lan, LinkClass::man_wan, LinkClass::lan_man}) {
    std::size_t count = 0;
    double sum = 0, low = std::numeric_limits<double>::infinity(), high = 0;
    for (const Edge& e : g.edges) {
      if (e.link_class != c) continue;
      ++count;
      sum += e.bandwidth;
      low = std::min(low, e.bandwidth);
      high = std::max(high, e.bandwidth);
    }
    edges[to_string(c)] = count;
    if (count > 0) {
      bandwidth[to_string(c)] = {
          {"mean", sum / static_cast<double>(count)}, {"min", low}, {"max", high}};
    }
  }
  out["edges"] = edges;
  out["bandwidth_bytes_per_s"] = bandwidth;
  out["diameter_hops"] = diameter(g);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist-platform: a Tiers-like SimGrid platform for RRV04 §8 (docs/ring-sim.md)"};
  PlatformOptions options;
  options.add_to(app);
  std::string platform_file, svg_file;
  std::int64_t ring_processors = 0;
  app.add_option("--platform", platform_file, "SimGrid platform file (XML) to write");
  app.add_option("--svg", svg_file, "drawing of the graph (SVG) to write");
  app.add_option("--ring", ring_processors,
                 "circle in the drawing the hosts of the ring redist-ring-sim builds with "
                 "--processors P and this seed");
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  return run_tool("redist-platform", [&] {
    const Graph graph = generate_tiers(options.params());
    if (!platform_file.empty()) write_file(platform_file, platform_xml(graph), "--platform");
    const auto hosts = static_cast<std::int64_t>(host_indices(graph).size());
    if (ring_processors != 0 && (ring_processors < 2 || ring_processors > hosts)) {
      throw redist::InputError(
          fmt::format("a ring needs 2..{} hosts (the platform's), got {}", hosts, ring_processors),
          "--ring");
    }
    const std::vector<std::int64_t> ring =
        ring_processors != 0 ? random_ring(graph, ring_processors, options.params().seed)
                             : std::vector<std::int64_t>{};
    if (!svg_file.empty()) write_file(svg_file, platform_svg(graph, ring), "--svg");
    std::cout << summary(graph).dump(2) << "\n";
  });
}
