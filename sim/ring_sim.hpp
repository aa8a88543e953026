// The iterative application of RRV04 §8 (docs/ring-sim.md, "The application"): what one run
// simulates, independent of SimGrid (the simulation itself is ring_sim_app.cpp).
//
// A scenario (seed s, ring size p):
//  - the platform: a Tiers-like graph (tiers.hpp) with the given parameters and seed s;
//  - the ring: p hosts drawn at random (random_ring), in the order drawn;
//  - the model's link costs, per column: the time to send one column (rows x 8 bytes) over the
//    route from a ring host to its successor (cost_next) or predecessor (cost_prev) at the
//    bandwidth of the route's slowest link, latency left out (the paper's model);
//  - the speeds: host i starts at its own speed and changes speed twice, after an iteration k1
//    drawn uniformly in [0.2 K, 0.4 K] and after one k2 in [0.6 K, 0.8 K] (1-based: iterations
//    k1 + 1 .. k2 run at the second speed), each new speed drawn uniformly among the machines'
//    speeds other than the current one (balance::kMachineSpeeds, Mflop/s), so that every change
//    is one;
//  - the columns: N columns (of `rows` doubles each), initially the balanced targets of the first
//    iteration's speeds ("proportional to speed": RRV04 §8), as every processor's items.
// The computation-to-communication ratio rho (RRV04 §8: "the relative (average) cost of a
// redistribution versus the cost of an iteration"; "when this parameter increases, iterations take
// more time, and the usefulness of a redistribution becomes more important") is the cost of an
// iteration relative to that of a redistribution, and sets the work per column: with T_ref the
// makespan planned (ring planner `auto`) for the redistribution from the balanced targets of the
// first iteration's speeds to those of the last, and I_ref = N f / (10^6 sum_i s_i(0)) the
// balanced iteration time at the first speeds for f flops per column, f is chosen so that
// I_ref = rho T_ref. When the first and last speeds have the same balanced targets, T_ref is that
// of the redistribution to the middle iteration's targets, and if that is empty too, the time to
// send N / p columns over the ring's mean link.
// Guarantees: the same scenario for the same spec on every platform (sim/random.hpp streams: the
// platform's own, `ring`, and `speeds` for the changes). Complexity: the platform's (tiers.hpp,
// O(N^3) routes for N nodes) plus O(K p) for the speeds and one ring plan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redist/balance/model.hpp"
#include "sim/tiers.hpp"

namespace redist::sim {

// Limits of a scenario (refused with InputError naming the option).
inline constexpr std::int64_t kMaxRingIterations = 10'000;  // K, "--iterations"
inline constexpr std::int64_t kMaxColumns = 1'000'000;      // N, "--columns"
inline constexpr std::int64_t kMaxRows = 1'000'000;         // rows, "--rows"

struct RingSimSpec {
  TiersParams platform;           // its seed is the scenario's
  std::int64_t processors = 8;    // p, "--processors"
  std::int64_t iterations = 100;  // K
  std::int64_t columns = 1000;    // N
  std::int64_t rows = 1000;       // doubles per column
  std::uint64_t seed() const { return platform.seed; }
};

struct Scenario {
  RingSimSpec spec;
  Graph graph;
  std::vector<std::int64_t> ring;           // node indices of the ring's hosts, in ring order
  std::vector<RingLinks> links;             // routes to successor and predecessor
  balance::RingCosts costs;                 // seconds per column, bidirectional
  std::vector<std::vector<double>> speeds;  // speeds[t][i], Mflop/s
  std::vector<std::int64_t> initial;        // columns per ring host before iteration 0
  double column_bytes = 0;                  // rows x 8
  double reference_redistribution = 0;      // T_ref, seconds
};

// InputError ("--processors", "--iterations", "--columns", "--rows", "--tiers") beyond limits.
Scenario make_scenario(const RingSimSpec& spec);

// f, the flops per column update that give ratio rho (> 0, finite; InputError "--ratios").
double flops_per_column(const Scenario& scenario, double rho);

// The scenario as a trace of the rebalancing model (balance/model.hpp) for f flops per column:
// speeds in columns per second (Mflop/s x 10^6 / f), the ring's per-column costs, the initial
// columns. What the model simulator and the hindsight optimum run on.
balance::Trace model_trace(const Scenario& scenario, double flops_per_column);

// A SimGrid platform on which every ring link is a link of its own with the model's cost: host
// "ring-i" (power states: the machines' speeds, starting at its own, as in platform_xml.hpp), a
// link "next-i" from ring-i to its successor and "prev-i" to its predecessor, each of bandwidth
// column_bytes / cost and no latency, a full zone routing ring-i to its neighbours over them. p >=
// 3 (with 2 hosts, "next" and "prev" would be two routes between the same pair; InputError
// "--processors").
std::string ring_model_xml(const Scenario& scenario);

}  // namespace redist::sim
