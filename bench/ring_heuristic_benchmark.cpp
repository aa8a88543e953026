// `heuristic` on heterogeneous bidirectional rings whose flows are not light: the chain portfolio
// (both orders, the descent over sources and sinks, forwards and time-reversed) and the System 6
// optimum it starts from. n = 2000 is the largest ring the descent runs on.
//
// Instances: random_ring (loads uniform in [1, 1000], targets a random composition of the same
// total, costs uniform in [0.1, 10] both ways), so items travel far and many processors are
// sources or sinks.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/ring/heuristic.hpp"
#include "redist/testing/random_ring.hpp"

namespace {

redist::ring::Instance make_instance(std::size_t n) {
  std::mt19937_64 rng(42);
  redist::testkit::RandomRingOptions o;
  o.n_min = o.n_max = n;
  o.bidirectional = true;
  return redist::testkit::random_ring(rng, o);
}

void BM_PlanHeuristic(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  std::size_t runs = 0;
  for (auto _ : state) {
    const auto s = redist::ring::plan_heuristic(in);
    runs = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["runs"] = static_cast<double>(runs);
}
BENCHMARK(BM_PlanHeuristic)->Arg(256)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace
