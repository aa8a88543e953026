// redist-platform-check: loads a platform file written by redist-platform into SimGrid and checks
// it against the generator's graph, rebuilt from the same options (docs/ring-sim.md).
//
//   redist-platform-check --platform p.xml [--tiers ...] [--seed S] [--host-probability P]
//                         [--pairs K]
//
// Checks: the hosts (names and speeds), the links (names, bandwidths, latencies), and for every
// ordered pair of nodes (or K pairs drawn with the seed) that SimGrid's route is made of exactly
// the links of the generator's route (Routes, sim/tiers.hpp), in order, with the same latency.
// Host pairs are asked through the S4U API (Host::route_to); pairs with a router through the
// kernel's NetZoneImpl::get_global_route, the only way to reach a router's routes.
// Prints a JSON summary on standard output. Exit codes: 0 every check passed; 1 a mismatch (each
// of the first 20 on standard error as `mismatch: ...`); 2 bad options (one `error:` line).
// Complexity: SimGrid's Floyd zone O(N^3), the generator's routes O(N^3), then O(pairs x hops).
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/located.hpp"
#include "sim/platform_options.hpp"

namespace {

namespace sg4 = simgrid::s4u;
using namespace redist::sim;

class Checker {
 public:
  Checker(const Graph& graph, const sg4::Engine& engine) : graph_(graph), engine_(engine) {
    for (const sg4::Link* link : engine.get_all_links())
      link_names_[link->get_impl()] = link->get_name();
  }

  void hosts() {
    const auto expected = host_indices(graph_);
    if (engine_.get_host_count() != expected.size())
      fail("SimGrid has " + std::to_string(engine_.get_host_count()) + " hosts, expected " +
           std::to_string(expected.size()));
    for (std::int64_t i : expected) {
      const Node& n = graph_.nodes[static_cast<std::size_t>(i)];
      const sg4::Host* host = engine_.host_by_name_or_null(node_name(n));
      if (host == nullptr) {
        fail("no host " + node_name(n));
      } else if (!close(host->get_speed(), n.speed * 1e6)) {
        fail(node_name(n) + ": speed " + std::to_string(host->get_speed()));
      }
    }
  }

  void links() {
    // SimGrid adds one link of its own, the loopback of its network model.
    const std::size_t count = engine_.get_link_count() - link_names_.count(loopback());
    if (count != graph_.edges.size())
      fail("SimGrid has " + std::to_string(count) + " links, expected " +
           std::to_string(graph_.edges.size()));
    for (const Edge& e : graph_.edges) {
      const sg4::Link* link = engine_.link_by_name_or_null(link_name(graph_, e));
      if (link == nullptr) {
        fail("no link " + link_name(graph_, e));
      } else if (!close(link->get_bandwidth(), e.bandwidth) ||
                 !close(link->get_latency(), e.latency)) {
        fail(link_name(graph_, e) + ": bandwidth " + std::to_string(link->get_bandwidth()) +
             ", latency " + std::to_string(link->get_latency()));
      }
    }
  }

  void route(const Routes& routes, std::int64_t a, std::int64_t b) {
    const Node& na = graph_.nodes[static_cast<std::size_t>(a)];
    const Node& nb = graph_.nodes[static_cast<std::size_t>(b)];
    std::vector<std::string> got;
    double latency = 0;
    const auto* pa = engine_.netpoint_by_name_or_null(node_name(na));
    const auto* pb = engine_.netpoint_by_name_or_null(node_name(nb));
    if (pa == nullptr || pb == nullptr) {
      fail("no node " + node_name(pa == nullptr ? na : nb));
      return;
    }
    const sg4::Host* ha = engine_.host_by_name_or_null(node_name(na));
    const sg4::Host* hb = engine_.host_by_name_or_null(node_name(nb));
    if (ha != nullptr && hb != nullptr) {
      std::vector<sg4::Link*> links;
      ha->route_to(hb, links, &latency);
      for (const sg4::Link* link : links) got.push_back(link->get_name());
      ++host_pairs_;
    } else {
      std::vector<simgrid::kernel::resource::StandardLinkImpl*> links;
      simgrid::kernel::routing::NetZoneImpl::get_global_route(pa, pb, links, &latency);
      for (auto* link : links) got.push_back(link_names_.at(link));
    }
    ++pairs_;
    const std::vector<std::int64_t> expected = routes.route(a, b);
    bool same = got.size() == expected.size();
    for (std::size_t k = 0; same && k < got.size(); ++k)
      same = got[k] == link_name(graph_, graph_.edges[static_cast<std::size_t>(expected[k])]);
    if (!same) {
      std::string text = node_name(na) + " -> " + node_name(nb) + ": SimGrid";
      for (const auto& name : got) text += " " + name;
      text += "; expected";
      for (std::int64_t k : expected)
        text += " " + link_name(graph_, graph_.edges[static_cast<std::size_t>(k)]);
      fail(text);
    } else if (!close(latency, route_cost(graph_, expected).latency)) {
      fail(node_name(na) + " -> " + node_name(nb) + ": latency " + std::to_string(latency));
    }
  }

  std::int64_t pairs() const { return pairs_; }
  std::int64_t host_pairs() const { return host_pairs_; }
  std::int64_t mismatches() const { return mismatches_; }

 private:
  const simgrid::kernel::resource::StandardLinkImpl* loopback() const {
    const sg4::Link* link = engine_.link_by_name_or_null("__loopback__");
    return link == nullptr ? nullptr : link->get_impl();
  }
  static bool close(double got, double want) {
    return std::abs(got - want) <= 1e-9 * std::abs(want);
  }
  void fail(const std::string& what) {
    if (++mismatches_ <= 20) std::cerr << "mismatch: " << what << "\n";
  }

  const Graph& graph_;
  const sg4::Engine& engine_;
  std::map<const simgrid::kernel::resource::StandardLinkImpl*, std::string> link_names_;
  std::int64_t pairs_ = 0, host_pairs_ = 0, mismatches_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist-platform-check: SimGrid's view of a redist-platform file"};
  PlatformOptions options;
  options.add_to(app);
  std::string platform_file;
  std::int64_t sample = 0;
  app.add_option("--platform", platform_file, "platform file written by redist-platform")
      ->required();
  app.add_option("--pairs", sample, "ordered pairs of nodes to check, drawn with the seed (0: all)")
      ->check(redist::cli::non_negative());
  redist::cli::strict_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << redist::one_line(redist::cli::error_line(e)) << "\n";
    return 2;
  }
  Graph graph;
  try {
    graph = generate_tiers(options.params());
  } catch (const redist::InputError& e) {
    std::cerr << "error: " << redist::one_line(redist::io::located(e, "$").what()) << "\n";
    return 2;
  }
  int sg_argc = 1;
  sg4::Engine engine(&sg_argc, argv);
  engine.load_platform(platform_file);
  engine.seal_platform();
  const Routes routes(graph);
  Checker check(graph, engine);
  check.hosts();
  check.links();
  const auto n = static_cast<std::int64_t>(graph.nodes.size());
  if (sample == 0) {
    for (std::int64_t a = 0; a < n; ++a)
      for (std::int64_t b = 0; b < n; ++b)
        if (a != b) check.route(routes, a, b);
  } else if (n >= 2) {
    std::mt19937_64 rng(graph.params.seed);
    for (std::int64_t k = 0; k < sample; ++k) {
      const auto a = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      const auto b =
          (a + 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n - 1))) % n;
      check.route(routes, a, b);
    }
  }
  std::cout << "{\"platform\": \"" << redist::one_line(platform_file, 200)
            << "\", \"hosts\": " << engine.get_host_count() << ", \"links\": " << graph.edges.size()
            << ", \"pairs\": " << check.pairs() << ", \"host_pairs\": " << check.host_pairs()
            << ", \"mismatches\": " << check.mismatches() << "}\n";
  return check.mismatches() == 0 ? 0 : 1;
}
