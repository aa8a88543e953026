// redist-smpi-platform: writes a SimGrid platform (and hostfile) for a ring instance, so that
// `smpirun` runs redist-smpi on a network whose link speeds match the instance's costs.
//
//   redist-smpi-platform --instance ring.json --item-bytes B [--latency S] --platform p.xml
//                        --hostfile hosts.txt
//   redist-smpi-platform --balance trace.json --flops-per-item F --item-bytes B ...
//
// Host i is rank i. Each direction of each ring link is its own SimGrid link (so links are full
// duplex), with bandwidth B / cost bytes per second (a cost is then seconds per item) and latency
// S; a unidirectional instance's backward links mirror the forward ones (they only carry the
// small messages of collectives). Routing is "Full": every pair of hosts is routed along the ring
// the way with fewer hops (ties: clockwise), through the links of that direction. By default hosts
// are not port-limited: a host may send to both neighbours at once (unlike the one-port model).
// --one-port adds a send port and a receive port per host (see below).
// --balance reads a balance trace (docs/balance.md: {"balance": {"ring", "speeds", ...}}) instead:
// the links come from its ring, and host i gets one power state per distinct speed s_i(t), of
// s_i(t) x F flop/s (smpi_pstates.hpp: the order an SMPI application switches them in), so
// an iteration of n items charged as n x F flops takes n / s_i(t), as in the model.
// Complexity: O(n^3) text for n hosts (the all-pairs routes).
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "apps/redist-mpi/smpi_pstates.hpp"
#include "apps/strict_numbers.hpp"
#include "redist/common/error.hpp"
#include "redist/io/balance_json.hpp"
#include "redist/io/json.hpp"
#include "redist/io/located.hpp"
#include "redist/io/ring_json.hpp"

namespace {

struct Args {
  std::string instance_file, balance_file, platform_file, hostfile;
  double item_bytes = 8, latency = 0, flops_per_item = 1e6;
  bool one_port = false;
  bool balance = false;  // --balance given
};

// The ring's links (and, with --balance, the trace's speeds) from the input file.
redist::ring::Instance read_ring(const Args& a, redist::balance::Trace& trace) {
  if (!a.balance) return redist::io::read_ring_instance(redist::io::read_document(a.instance_file));
  trace = redist::io::read_balance_trace(redist::io::read_document(a.balance_file));
  redist::ring::Instance in;
  in.bidirectional = trace.ring.bidirectional;
  in.cost_next = trace.ring.cost_next;
  in.cost_prev = trace.ring.cost_prev;
  in.loads = in.targets = std::vector<std::int64_t>(in.cost_next.size(), 0);
  return in;
}

// Host i (rank i): one power state per distinct speed of the trace, else 1 Gflop/s.
void write_hosts(std::ostream& p, std::ostream& h, const Args& a, int n,
                 const redist::balance::Trace& trace) {
  for (int i = 0; i < n; ++i) {
    std::string speeds = "1Gf";
    if (a.balance) {
      speeds.clear();
      for (double s : redist::mpi::host_speeds(trace, static_cast<std::size_t>(i)))
        speeds += fmt::format("{}{:.17g}f", speeds.empty() ? "" : ",", s * a.flops_per_item);
    }
    p << fmt::format("    <host id=\"p{}\" speed=\"{}\" pstate=\"0\"/>\n", i, speeds);
    h << fmt::format("p{}\n", i);
  }
}

void write_links(std::ostream& p, const Args& a, const redist::ring::Instance& in) {
  const int n = static_cast<int>(in.size());
  for (int i = 0; i < n; ++i) {
    const int s = (i + 1) % n;
    // next{i}: i -> succ(i); prev{s}: succ(i) -> i.
    const double c_next = in.cost_next[i];
    const double c_prev = in.bidirectional ? in.cost_prev[s] : in.cost_next[i];
    p << fmt::format("    <link id=\"next{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\"/>\n", i,
                     a.item_bytes / c_next, a.latency);
    p << fmt::format("    <link id=\"prev{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\"/>\n", s,
                     a.item_bytes / c_prev, a.latency);
  }
  // One-port: every route starts with its source's send port and ends with its destination's
  // receive port, links of unlimited bandwidth that carry one flow at a time (SimGrid's
  // concurrency limit; the XML format cannot set it, so redist-smpi-oneport.so loads this file
  // and applies the `concurrency_limit` property).
  for (int i = 0; a.one_port && i < n; ++i) {
    for (const char* port : {"send", "recv"}) {
      p << fmt::format(
          "    <link id=\"{}{}\" bandwidth=\"1e15Bps\" latency=\"0s\">"
          "<prop id=\"concurrency_limit\" value=\"1\"/></link>\n",
          port, i);
    }
  }
}

// Every pair of hosts, the shorter way round the ring (ties clockwise).
void write_routes(std::ostream& p, const Args& a, int n) {
  for (int from = 0; from < n; ++from) {
    for (int to = 0; to < n; ++to) {
      if (from == to) continue;
      const int cw = (to - from + n) % n;
      p << fmt::format("    <route src=\"p{}\" dst=\"p{}\" symmetrical=\"NO\">", from, to);
      if (a.one_port) p << fmt::format("<link_ctn id=\"send{}\"/>", from);
      if (cw <= n - cw) {
        for (int k = 0; k < cw; ++k) p << fmt::format("<link_ctn id=\"next{}\"/>", (from + k) % n);
      } else {
        for (int k = 0; k < n - cw; ++k)
          p << fmt::format("<link_ctn id=\"prev{}\"/>", (from - k + n) % n);
      }
      if (a.one_port) p << fmt::format("<link_ctn id=\"recv{}\"/>", to);
      p << "</route>\n";
    }
  }
}

void write_platform(const Args& a) {
  redist::balance::Trace trace;
  const redist::ring::Instance in = read_ring(a, trace);
  const int n = static_cast<int>(in.size());
  if (a.one_port && a.latency > 0) {
    // Measured with SimGrid 3.32: with any latency > 0 (even 1e-6 s) on a route through a
    // concurrency-limited link, flows sat idle and a schedule that matches the one-port model
    // exactly at latency 0 took 1.48x as long (docs/mpi.md).
    std::cerr << "warning: --one-port with --latency > 0: SimGrid 3.32's concurrency limit "
                 "leaves flows idle when links have latency; use --latency 0\n";
  }
  std::ofstream p(a.platform_file), h(a.hostfile);
  if (!p || !h) throw redist::InputError("cannot write the output files", "--platform");
  p << "<?xml version='1.0'?>\n"
       "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
       "<platform version=\"4.1\">\n  <zone id=\"ring\" routing=\"Full\">\n";
  write_hosts(p, h, a, n, trace);
  write_links(p, a, in);
  write_routes(p, a, n);
  p << "  </zone>\n</platform>\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist-smpi-platform: a SimGrid ring platform for an instance"};
  Args a;
  CLI::Option* instance_opt = app.add_option("--instance", a.instance_file, "ring instance JSON");
  CLI::Option* balance_opt = app.add_option(
      "--balance", a.balance_file, "balance trace JSON: ring links and per-iteration host speeds");
  instance_opt->excludes(balance_opt);
  app.add_option("--flops-per-item", a.flops_per_item,
                 "(--balance) flops of one item of work: host speed s x F flop/s")
      ->check(redist::cli::positive())
      ->needs(balance_opt);
  app.add_option("--item-bytes", a.item_bytes, "bytes per item")
      ->required()
      ->check(redist::cli::positive());
  app.add_option("--latency", a.latency, "latency of every link, seconds")
      ->check(redist::cli::non_negative());
  app.add_flag("--one-port", a.one_port,
               "one-port hosts: each sends one message and receives one message at a time (load "
               "the XML through redist-smpi-oneport.so, see docs/mpi.md)");
  app.add_option("--platform", a.platform_file, "platform XML to write")->required();
  app.add_option("--hostfile", a.hostfile, "hostfile to write")->required();
  CLI11_PARSE(app, argc, argv);
  try {
    if (instance_opt->count() + balance_opt->count() != 1)
      throw redist::InputError("give exactly one of --instance and --balance", "--instance");
    a.balance = balance_opt->count() > 0;
    write_platform(a);
  } catch (const redist::InputError& e) {
    std::cerr << "error: " << redist::io::located(e, "$").what() << "\n";
    return 2;
  }
  return 0;
}
