// Targets: BBA with m = 1000 workers and 10^6 tasks under 1 s, MBBSA on the same under 5 s, on
// homogeneous and heterogeneous links (STAR §3.3-3.4).
//
// Instances (redist/star/random_instances.hpp): 1000 workers, 10^6 tasks spread with skewed
// weights (u^2), c and w integers in 1..100; "homogeneous" draws one c and one w for all workers,
// "homogeneous links" one c for all. "Concentrated": all 10^6 tasks on worker 0, c = 1 and
// w = 1000 (or w in 500..1500): nearly every task moves, the hardest case for the task-by-task
// loops. The counters report how many tasks moved.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/star/bba.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/random_instances.hpp"

namespace {

using redist::star::Instance;

Instance make_instance(bool homogeneous_links, bool homogeneous_computation) {
  std::mt19937_64 rng(2006);
  return redist::star::random_instance(
      rng, {homogeneous_links, homogeneous_computation, redist::star::Range::general},
      {1000, 1000, 1000000, 1000000});
}

Instance concentrated(bool homogeneous_computation) {
  Instance in;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    in.c.push_back(1);
    in.w.push_back(homogeneous_computation ? 1000.0 : 500.0 + static_cast<double>(rng() % 1001));
    in.loads.push_back(i == 0 ? 1000000 : 0);
  }
  return in;
}

// One planner on one instance; the counter reports how many tasks moved.
template <class Planner>
void BM_Plan(benchmark::State& state, Planner plan, Instance in) {
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = plan(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}

const auto bba = [](const Instance& in) { return redist::star::plan_bba(in); };
const auto mbbsa = [](const Instance& in) { return redist::star::plan_mbbsa(in); };
const auto best = [](const Instance& in) { return redist::star::plan(in, {"best"}); };

BENCHMARK_CAPTURE(BM_Plan, BbaHomogeneous, bba, make_instance(true, true))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, BbaHeterogeneous, bba, make_instance(false, false))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, MbbsaHomogeneousLinks, mbbsa, make_instance(true, false))
    ->Unit(benchmark::kMillisecond);
// Heterogeneous links: Moore's scan merges the receivers' deadlines lazily (it used to build and
// sort all of them at each of the ~40 decisions: 24 s for `best` on this instance).
BENCHMARK_CAPTURE(BM_Plan, MbbsaHeterogeneous, mbbsa, make_instance(false, false))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, BestHeterogeneous, best, make_instance(false, false))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, BbaConcentrated, bba, concentrated(true))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Plan, MbbsaConcentrated, mbbsa, concentrated(false))
    ->Unit(benchmark::kMillisecond);

// exact at the size limits it documents: 50 random platforms (STAR §4.1 types in turn, the
// u^2 spread) of `workers` workers and 40 tasks, seed 2024 + workers, solved one after the
// other per iteration. Counters: how many were proven optimal, and the nodes of the slowest.
void BM_ExactRandom(benchmark::State& state) {
  const auto workers = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(2024 + workers);
  std::vector<Instance> instances;
  for (int t = 0; t < 50; ++t) {
    const redist::star::PlatformType type{t % 4 == 0, t % 2 == 0,
                                          static_cast<redist::star::Range>(t % 3)};
    instances.push_back(redist::star::random_instance(rng, type, {workers, workers, 40, 40}));
  }
  int proven = 0;
  for (auto _ : state) {
    proven = 0;
    for (const Instance& in : instances) proven += redist::star::plan_exact(in).optimal;
  }
  state.counters["proven"] = proven;
  state.counters["instances"] = static_cast<double>(instances.size());
}
BENCHMARK(BM_ExactRandom)->Arg(5)->Arg(6)->Unit(benchmark::kMillisecond);

// One of the slowest proven of 2000 such platforms with 6 workers (docs/star.md).
BENCHMARK_CAPTURE(
    BM_Plan, ExactSlow, [](const Instance& in) { return redist::star::plan_exact(in); },
    Instance{{31, 41, 35, 46, 45, 47}, {73, 61, 58, 65, 58, 74}, {1, 3, 21, 0, 3, 12}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
