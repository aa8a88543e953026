// `redist experiment exchange` (docs/exchange.md, "Experiment"): reruns the kind of simulation of
// Cohen, Jeannot, Padoy and Wagner (IEEE TPDS 17(10), 2006) for the KPBS step algorithms, on our
// implementation, with our parameters (we have no copy of their exact set-up).
//
// Random bipartite instances: 20 senders (nodes 0..19) and 20 receivers (nodes 20..39), each of
// the 400 pairs a message with probability `density`, bytes uniform integers in 1..20, every
// bandwidth 1 (a message lasts its bytes in seconds), latency beta. With k < 20 a backbone joins
// the senders' cluster to the receivers' with k transfers (every message crosses, so the KPBS
// constraint is exactly ours); with k = 20 there is no backbone.
// Sweep 1: k in {2, 5, 10, 20} x beta in {0, 1, 2, 5, 10, 20, 50}, density 0.5.
// Sweep 2: k = 5, beta = 5, density 0.1 .. 1.0 (x = the number of messages).
// For each instance, ggp, oggp, steps, whole and preemptive (this one without a backbone only)
// plan it; every plan passes the independent validator, and its makespan is divided by eta (the
// step lower bound) and by bounds(instance).lower_bound (every schedule's bound).
// Outputs: kpbs.{json,md} (sweep 1: mean and max ratios per cell), kpbs_edges.{json,md} (sweep 2),
// kpbs_k2.svg, kpbs_k5.svg, kpbs_k10.svg, kpbs_k20.svg (mean ratio to eta against beta) and
// kpbs_edges.svg (against the number of messages).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace redist::experiments {

struct KpbsExperimentOptions {
  std::string out_dir;
  std::uint64_t seed = 1;
  std::int64_t instances = 100;  // per cell
};

// Returns the common summary (experiment_files.hpp); its "results" hold the rows of both tables
// as objects keyed by column, and "guarantee": the largest makespan / (proven guarantee) of ggp
// and oggp over every instance (at most 1). Throws std::logic_error if a plan is invalid.
nlohmann::ordered_json run_kpbs_experiment(const KpbsExperimentOptions& options);

}  // namespace redist::experiments
