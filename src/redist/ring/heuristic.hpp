// `heuristic` (ours, docs/formats.md): a valid schedule for any ring, light or not, with its gap to
// the System 6 lower bound. RRV04 §6.2 leaves the general heterogeneous bidirectional case open.
//
// Chains. Given flows, every processor is a relay (receives from one side, sends to the other), a
// source (sends both ways), a sink (receives from both sides), or an end of one chain. Items go
// along maximal chains source -> relays -> sink, and two chains share a port only at a source
// (its send port) or at a sink (its receive port). Fixing, at every source, which direction it
// serves first, and at every sink, which side it receives from first (each side's items all
// before the other's), every chain is a unidirectional pipeline in which Algorithm 2's
// as-soon-as-possible forwarding (pipeline.hpp) gives the earliest departures; a sink's second
// chain is released when its first chain ends. "Next first" everywhere is RRV04 Lemma 9's
// schedule, optimal when the flows are light.
//
// Portfolio. Flows: the System 6 optimum x* (flows[i] = x + prefix[i]) and its neighbours
// x* +- 1, +- 2, ... while tau(x) stays below the best makespan found (tau(x) bounds every
// schedule with those flows; the best flow is not always x*, as small exhaustive searches show).
// Orders: "next first" and "prev first" everywhere, then coordinate descent flipping one source or
// sink at a time (n <= 2000). Each also on the time-reversed instance (final loads become initial
// loads, links swap directions; the schedule is read backwards), and, when a gap to tau6 remains
// and at most 10^5 items move, the item-level list scheduler of flow_executor.hpp with each of its
// priority rules, forwards and time-reversed. The shortest valid schedule wins.
//
// Guarantee: valid; lower_bound = the System 6 integer optimum (>= RRV04 Lemma 12); optimal only
// when the makespan equals it. Complexity: the chains of each flow are found once, in O(n); an
// evaluated order then costs O(chains) plus the runs of the chains whose release times differ from
// both of their last two schedules (kept per chain, so that undoing a flip recomputes nothing):
// O(n + R) at worst (R runs), O(n * (n + R)) per descent pass.
#pragma once

#include <optional>
#include <vector>

#include "redist/ring/bounds.hpp"
#include "redist/ring/model.hpp"

namespace redist::ring {

struct HeuristicOptions {
  int flow_radius = 6;               // at most this many flows tried on each side of x*
  int descent_passes = 3;            // coordinate-descent passes over sources and sinks
  std::size_t descent_max_n = 2000;  // no descent above this ring size
  std::int64_t executor_max_items = 100'000;
};

Schedule plan_heuristic(const Instance& instance, const HeuristicOptions& options = {});

namespace detail {

// plan_heuristic when the caller already has tau6 = system6_integer_optimum(instance) (plan_light
// does), so that it is not computed again.
Schedule plan_heuristic(const Instance& instance, const HeuristicOptions& options,
                        const System6Solution& tau6);

// Per processor: a source serves `next` first (1) or `prev` first (0); a sink receives from pred
// first (1) or from succ first (0). Entries of other processors are ignored.
struct ChainOrders {
  std::vector<char> source_next_first;
  std::vector<char> sink_pred_first;
};

// The chain schedule of the flows under the given orders; std::nullopt when the flows circulate
// all the way round (no source), which the portfolio never needs.
std::optional<std::vector<Run>> chain_schedule(const Instance& instance,
                                               const std::vector<std::int64_t>& flows,
                                               const ChainOrders& orders);

// The time-reversed instance: targets and loads swap, the link i -> succ(i) of the reversed ring
// costs what succ(i) -> i costs in the original.
Instance reversed_instance(const Instance& instance);
// Maps a schedule of reversed_instance(instance) back to `instance`.
std::vector<Run> unreverse_runs(const Instance& instance, const std::vector<Run>& reversed_runs);

}  // namespace detail
}  // namespace redist::ring
