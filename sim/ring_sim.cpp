#include "sim/ring_sim.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "redist/balance/simulate.hpp"
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

// A machine speed other than `current` and within a factor `amplitude` of it, uniformly. The
// candidates are the machine speeds within the factor, `current` included, in increasing order; a
// pick among all but the last that falls on `current` takes the last instead (with an amplitude of
// 8, every machine is a candidate).
double other_speed(detail::Random& rng, double current, double amplitude) {
  std::vector<double> candidates;
  for (double speed : balance::kMachineSpeeds)
    if (std::max(speed, current) / std::min(speed, current) <= amplitude)
      candidates.push_back(speed);  // the same quotients as min_speed_amplitude()
  const std::int64_t pick = rng.below(static_cast<std::int64_t>(candidates.size()) - 1);
  const auto at = static_cast<std::size_t>(pick);
  return candidates[at] == current ? candidates.back() : candidates[at];
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
    const double middle = other_speed(rng, own, s.spec.amplitude);
    const double last = other_speed(rng, middle, s.spec.amplitude);
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

double min_speed_amplitude() {
  const auto& speeds = balance::kMachineSpeeds;  // increasing
  double needed = speeds[1] / speeds[0];
  for (std::size_t i = 1; i + 1 < speeds.size(); ++i)
    needed = std::max(needed, std::min(speeds[i] / speeds[i - 1], speeds[i + 1] / speeds[i]));
  return std::max(needed, speeds.back() / speeds[speeds.size() - 2]);
}

Scenario make_scenario(const RingSimSpec& spec) {
  require_in(spec.iterations, 1, kMaxRingIterations, "--iterations");
  if (!(std::isfinite(spec.amplitude) && spec.amplitude >= min_speed_amplitude()))
    throw InputError(fmt::format("must be a finite number >= {:.4g} (28 / 22: every machine speed "
                                 "needs another within that factor), got {}",
                                 min_speed_amplitude(), spec.amplitude),
                     "--amplitude");
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
  return flops_for_iteration(s, rho * s.reference_redistribution);
}

double flops_for_iteration(const Scenario& s, double seconds) {
  if (!(std::isfinite(seconds) && seconds > 0))
    throw InputError(fmt::format("an iteration must last a finite time > 0, got {} s", seconds),
                     "--ratios");
  const double speed = std::accumulate(s.speeds.front().begin(), s.speeds.front().end(), 0.0);
  const auto n = static_cast<double>(std::max<std::int64_t>(s.spec.columns, 1));
  return 1e6 * speed * seconds / n;
}

double balanced_iteration_time(const Scenario& s, double flops_per_column) {
  const double speed = std::accumulate(s.speeds.front().begin(), s.speeds.front().end(), 0.0);
  const auto n = static_cast<double>(std::max<std::int64_t>(s.spec.columns, 1));
  return n * flops_per_column / (1e6 * speed);
}

std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> paper_redistributions(
    const Scenario& s) {
  if (s.spec.iterations <= kPaperSchemesLastPoint)
    throw InputError(fmt::format("the paper's axis averages the redistributions of at:50, "
                                 "at:20,40,60,80, every:10 and every:5: it needs more than {} "
                                 "iterations, got {}",
                                 kPaperSchemesLastPoint, s.spec.iterations),
                     "--axis");
  // Any f gives the same points and targets; this one gives iterations of T_ref.
  const balance::Trace trace = model_trace(s, flops_per_column(s, 1.0));
  std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> out;
  for (const std::string& scheme : kPaperRedistributingSchemes) {
    std::vector<std::int64_t> counts = s.initial;
    for (const balance::Rebalance& r : balance::simulate(trace, scheme).rebalances) {
      if (r.targets != counts) out.emplace_back(counts, r.targets);
      counts = r.targets;
    }
  }
  return out;
}

double columns_per_second(double mflops, double flops_per_column) {
  int exponent = 0;
  const double mantissa = std::frexp(1e6 / flops_per_column, &exponent);  // in [0.5, 1)
  return mflops * std::ldexp(std::round(std::ldexp(mantissa, 44)), exponent - 44);
}

balance::Trace model_trace(const Scenario& s, double flops_per_column) {
  balance::Trace trace;
  trace.ring = s.costs;
  trace.initial_loads = s.initial;
  for (const auto& row : s.speeds) {
    std::vector<double> speeds;
    for (double mflops : row) speeds.push_back(columns_per_second(mflops, flops_per_column));
    trace.speeds.push_back(std::move(speeds));
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
