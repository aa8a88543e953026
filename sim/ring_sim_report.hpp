// What one run of redist-ring-sim found (sim/ring_sim_app.cpp, docs/ring-sim.md), and its two
// renderings: the JSON document (`--format json`, the default) and a readable summary (`--format
// text`). Both render the same typed report, which the simulation fills; neither computes a value
// of its own. Complexity: linear in the runs and their rebalances.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace redist::sim {

// One rebalance of a run: after which iteration (from 1), the ring planner's makespan for it and
// its simulated duration on the network.
struct SimulatedRebalance {
  std::int64_t after_iteration = 0;
  double planned = 0, simulated = 0;
};

// One (ratio, scheme) run of the application.
struct SimulatedRun {
  double ratio = 0;
  std::string scheme;  // as given (--schemes)
  std::string policy;  // the policy actually run (`oracle`: its points, as `at:` or `never`)
  double flops_per_column = 0;
  double iteration_time = 0;                          // balanced, at the first speeds
  double total = 0, compute = 0, redistribution = 0;  // simulated, seconds
  double model_total = 0;  // the model simulator's total for the same policy
  std::vector<SimulatedRebalance> rebalances{};
};

// The scenario as simulated, and every run.
struct RingSimReport {
  std::uint64_t seed = 0;
  std::size_t processors = 0;
  std::string mode;  // tiers or model
  std::string axis;  // paper or reference
  double amplitude = 0;
  std::int64_t iterations = 0, columns = 0;
  double column_bytes = 0;
  double reference_redistribution = 0;  // T_ref, seconds
  double average_redistribution = 0;    // A_red, seconds (paper's axis)
  std::size_t redistributions_averaged = 0;
  std::vector<std::string> ring;                     // the ring's hosts, in ring order
  std::vector<std::int64_t> chunk_next, chunk_prev;  // columns per message on each ring link
  std::vector<SimulatedRun> runs;
};

// The JSON document of docs/ring-sim.md: {"scenario": {...}, "runs": [...]}, on one line, or
// indented by 2 spaces when `indent` (a terminal); ends with a newline.
std::string ring_sim_json(const RingSimReport& report, bool indent);

// The readable summary: the scenario (ring, network, axis, A_red and T_ref), then per ratio a table
// of the schemes with their simulated total, compute and redistribution times, the model's total
// and the iterations after which they rebalanced (text/summary.hpp's shape and cuts).
std::string ring_sim_text(const RingSimReport& report);

}  // namespace redist::sim
