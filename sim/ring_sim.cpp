#include "sim/ring_sim.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"
#include "sim/platform_xml.hpp"
#include "sim/random.hpp"

namespace redist::sim {
namespace {

void require_in(std::int64_t value, std::int64_t low, std::int64_t high, const char* option) {
  if (value < low || value > high)
    throw InputError(fmt::format("must be in {}..{}, got {}", low, high, value), option);
}

// A machine speed other than `current`, uniformly.
double other_speed(detail::Random& rng, double current) {
  const auto& speeds = balance::kMachineSpeeds;
  const std::int64_t pick = rng.below(static_cast<std::int64_t>(speeds.size()) - 1);
  const auto at = static_cast<std::size_t>(pick);
  return speeds[at] == current ? speeds.back() : speeds[at];
}

// Every ring host's speed in every iteration: its own, then two changes (ring_sim.hpp).
std::vector<std::vector<double>> drifting_speeds(const Scenario& s) {
  const std::int64_t k = s.spec.iterations;
  const std::size_t p = s.ring.size();
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(k), std::vector<double>(p));
  detail::Random rng(s.spec.seed(), detail::Stream::speeds);
  for (std::size_t i = 0; i < p; ++i) {
    const std::int64_t first = k / 5 + rng.below(k / 5 + 1);
    const std::int64_t second = 3 * k / 5 + rng.below(k / 5 + 1);
    const double own = s.graph.nodes[static_cast<std::size_t>(s.ring[i])].speed;
    const double middle = other_speed(rng, own);
    const double last = other_speed(rng, middle);
    for (std::int64_t t = 0; t < k; ++t)
      rows[static_cast<std::size_t>(t)][i] = t < first ? own : t < second ? middle : last;
  }
  return rows;
}

balance::RingCosts model_costs(const std::vector<RingLinks>& links, double column_bytes) {
  balance::RingCosts costs;
  costs.bidirectional = true;
  for (const RingLinks& l : links) {
    costs.cost_next.push_back(column_bytes / l.next.bandwidth);
    costs.cost_prev.push_back(column_bytes / l.prev.bandwidth);
  }
  return costs;
}

// T_ref of ring_sim.hpp.
double reference_redistribution(const Scenario& s) {
  const std::int64_t n = s.spec.columns;
  for (const auto& row : {s.speeds.back(), s.speeds[s.speeds.size() / 2]}) {
    const double m =
        balance::redistribution_makespan(s.costs, s.initial, balance::balanced_targets(n, row));
    if (m > 0) return m;
  }
  const double links = std::accumulate(s.costs.cost_next.begin(), s.costs.cost_next.end(), 0.0) +
                       std::accumulate(s.costs.cost_prev.begin(), s.costs.cost_prev.end(), 0.0);
  const auto p = static_cast<double>(s.ring.size());
  return links / (2 * p) * static_cast<double>(n) / p;
}

}  // namespace

Scenario make_scenario(const RingSimSpec& spec) {
  require_in(spec.iterations, 1, kMaxRingIterations, "--iterations");
  require_in(spec.columns, 0, kMaxColumns, "--columns");
  require_in(spec.rows, 1, kMaxRows, "--rows");
  Scenario s;
  s.spec = spec;
  s.graph = generate_tiers(spec.platform);
  s.ring = random_ring(s.graph, spec.processors, spec.seed());
  s.links = ring_links(s.graph, Routes(s.graph), s.ring);
  s.column_bytes = 8.0 * static_cast<double>(spec.rows);
  s.costs = model_costs(s.links, s.column_bytes);
  s.speeds = drifting_speeds(s);
  s.initial = balance::balanced_targets(spec.columns, s.speeds.front());
  s.reference_redistribution = reference_redistribution(s);
  return s;
}

double flops_per_column(const Scenario& s, double rho) {
  if (!(std::isfinite(rho) && rho > 0))
    throw InputError(fmt::format("a ratio must be a finite number > 0, got {}", rho), "--ratios");
  const double speed = std::accumulate(s.speeds.front().begin(), s.speeds.front().end(), 0.0);
  const auto n = static_cast<double>(std::max<std::int64_t>(s.spec.columns, 1));
  return 1e6 * speed * rho * s.reference_redistribution / n;
}

balance::Trace model_trace(const Scenario& s, double flops_per_column) {
  balance::Trace trace;
  trace.ring = s.costs;
  trace.initial_loads = s.initial;
  for (const auto& row : s.speeds) {
    std::vector<double> columns_per_second;
    for (double mflops : row) columns_per_second.push_back(mflops * 1e6 / flops_per_column);
    trace.speeds.push_back(std::move(columns_per_second));
  }
  return trace;
}

std::string ring_model_xml(const Scenario& s) {
  const std::size_t p = s.ring.size();
  if (p < 3) throw InputError("the model's platform needs 3 processors or more", "--processors");
  std::string out =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n";
  out += fmt::format(
      "  <!-- The ring of scenario {} ({} processors) with its model's links: one link per ring "
      "link and direction, bandwidth = column bytes / cost, no latency. -->\n"
      "  <zone id=\"ring\" routing=\"Full\">\n",
      s.spec.seed(), p);
  const std::string pstates = machine_pstates();
  for (std::size_t i = 0; i < p; ++i) {
    out += fmt::format("    <host id=\"ring-{}\" speed=\"{}\" pstate=\"{}\"/>\n", i, pstates,
                       pstate_of(s.speeds.front()[i]));
  }
  for (std::size_t i = 0; i < p; ++i) {
    out += fmt::format("    <link id=\"next-{}\" bandwidth=\"{:.17g}Bps\" latency=\"0\"/>\n", i,
                       s.column_bytes / s.costs.cost_next[i]);
    out += fmt::format("    <link id=\"prev-{}\" bandwidth=\"{:.17g}Bps\" latency=\"0\"/>\n", i,
                       s.column_bytes / s.costs.cost_prev[i]);
  }
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t succ = (i + 1) % p, pred = (i + p - 1) % p;
    out += fmt::format(
        "    <route src=\"ring-{}\" dst=\"ring-{}\" symmetrical=\"NO\"><link_ctn "
        "id=\"next-{}\"/></route>\n",
        i, succ, i);
    out += fmt::format(
        "    <route src=\"ring-{}\" dst=\"ring-{}\" symmetrical=\"NO\"><link_ctn "
        "id=\"prev-{}\"/></route>\n",
        i, pred, i);
  }
  out += "  </zone>\n</platform>\n";
  return out;
}

}  // namespace redist::sim
