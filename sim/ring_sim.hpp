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
//    speeds (balance::kMachineSpeeds, Mflop/s) other than the current one and within a factor A,
//    the amplitude, of it (A >= 8, the default, allows every machine: 172 / 22 < 8), so that every
//    change is one;
//  - the columns: N columns (of `rows` doubles each), initially the balanced targets of the first
//    iteration's speeds ("proportional to speed": RRV04 §8), as every processor's items.
// The work per column f is set by a computation-to-communication ratio, on one of two axes, both
// relative to I(f) = N f / (10^6 sum_i s_i(0)), the balanced iteration time at the first speeds:
//  - the paper's axis (RRV04 §8, Figures 13 and 14: "the relative (average) cost of a
//    redistribution versus the cost of an iteration"; ratio 10, "processing power high", is where
//    redistributing does not pay): ratio R = A_red / I(f), with A_red the average cost of a
//    redistribution: the mean duration, as simulated on the run's network, of the redistributions
//    that move at least one column in RRV04's four redistributing schemes (at:50, at:20,40,60,80,
//    every:10, every:5; paper_redistributions below). Their points and targets do not depend on f,
//    so A_red is measured once per scenario and network before the runs;
//  - the reference axis (the paper's first sentence read literally, "when this parameter
//    increases, iterations take more time"): rho = I(f) / T_ref, with T_ref the makespan planned
//    (ring planner `auto`) for the redistribution from the balanced targets of the first
//    iteration's speeds to those of the last. When the first and last speeds have the same
//    balanced targets, T_ref is that of the redistribution to the middle iteration's targets, and
//    if that is empty too, the time to send N / p columns over the ring's mean link.
// So R = (A_red / T_ref) / rho.
// Guarantees: the same scenario for the same spec on every platform (sim/random.hpp streams: the
// platform's own, `ring`, and `speeds` for the changes). Complexity: the platform's (tiers.hpp,
// O(N^3) routes for N nodes) plus O(K p) for the speeds and one ring plan.
// Limits: the amplitude A must be finite and at least min_speed_amplitude().
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "redist/balance/model.hpp"
#include "sim/tiers.hpp"

namespace redist::sim {

// Limits of a scenario (refused with InputError naming the option).
inline constexpr std::int64_t kMaxRingIterations = 10'000;  // K, "--iterations"
inline constexpr std::int64_t kMaxColumns = 1'000'000;      // N, "--columns"
inline constexpr std::int64_t kMaxRows = 1'000'000;         // rows, "--rows"

// The smallest amplitude for which every machine speed has another within that factor (28 / 22).
double min_speed_amplitude();

struct RingSimSpec {
  TiersParams platform;           // its seed is the scenario's
  double amplitude = 8;           // A, "--amplitude": a new speed is within a factor A of the old
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

// InputError ("--processors", "--iterations", "--columns", "--rows", "--tiers", "--amplitude")
// beyond limits.
Scenario make_scenario(const RingSimSpec& spec);

// f, the flops per column update that give rho on the reference axis (rho > 0, finite;
// InputError "--ratios").
double flops_per_column(const Scenario& scenario, double rho);

// f for which the balanced iteration at the first speeds, I(f), takes `seconds` (> 0, finite;
// InputError "--ratios"); I(f) is proportional to f.
double flops_for_iteration(const Scenario& scenario, double seconds);

// I(f): the balanced iteration time at the first speeds for f flops per column.
double balanced_iteration_time(const Scenario& scenario, double flops_per_column);

// RRV04 §8's four redistributing schemes, whose redistributions define the average cost of a
// redistribution (the paper's axis).
inline const std::vector<std::string> kPaperRedistributingSchemes = {"at:50", "at:20,40,60,80",
                                                                     "every:10", "every:5"};

// The schemes' points (up to after iteration 80) need more iterations than this.
inline constexpr std::int64_t kPaperSchemesLastPoint = 80;

// Every redistribution, as (counts before, targets), that moves at least one column in a run of
// one of kPaperRedistributingSchemes, scheme after scheme, in the order of the run (a pair appears
// as often as it occurs). The schemes' points are fixed and their targets are the balanced targets
// of the last iteration's speeds, which do not depend on f (columns_per_second), so neither does
// the list. O(K p) per scheme. InputError ("--axis") for K <= kPaperSchemesLastPoint.
std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> paper_redistributions(
    const Scenario& scenario);

// A speed of `mflops` Mflop/s in columns per second for f flops per column: mflops x c, with c the
// double nearest 10^6 / f rounded to 44 significant bits (a relative change below 10^-13). The
// machine speeds are integers below 2^8, so every product is exact and the quotient of two speeds
// does not depend on f: exact ties of the balanced targets (balance/targets.hpp) stay ties, broken
// by index, and every work per column gives the same targets.
double columns_per_second(double mflops, double flops_per_column);

// The scenario as a trace of the rebalancing model (balance/model.hpp) for f flops per column:
// speeds in columns per second (columns_per_second), the ring's per-column costs, the initial
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
