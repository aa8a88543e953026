// Issue #5 targets: BBA with m = 1000 workers and 10^6 tasks under 1 s, MBBSA on the same under
// 5 s (STAR §3.3-3.4).
//
// Instances (redist/star/random_instances.hpp): 1000 workers, 10^6 tasks spread with skewed
// weights (u^2), c and w integers in 1..100; "homogeneous" draws one c and one w for all workers,
// "homogeneous links" one c for all. "Concentrated": all 10^6 tasks on worker 0, c = 1 and
// w = 1000 (or w in 500..1500): nearly every task moves, the hardest case for the task-by-task
// loops. The counters report how many tasks moved.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/star/bba.hpp"
#include "redist/star/mbbsa.hpp"
#include "redist/star/random_instances.hpp"

namespace {

using redist::star::Instance;

Instance make_instance(bool homogeneous_links, bool homogeneous_computation) {
  std::mt19937_64 rng(2006);
  return redist::star::random_instance(
      rng, {homogeneous_links, homogeneous_computation, redist::star::Range::general},
      {1000, 1000, 1000000, 1000000});
}

void BM_BbaHomogeneous(benchmark::State& state) {
  const Instance in = make_instance(true, true);
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = redist::star::plan_bba(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}
BENCHMARK(BM_BbaHomogeneous)->Unit(benchmark::kMillisecond);

void BM_BbaHeterogeneous(benchmark::State& state) {
  const Instance in = make_instance(false, false);
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = redist::star::plan_bba(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}
BENCHMARK(BM_BbaHeterogeneous)->Unit(benchmark::kMillisecond);

void BM_MbbsaHomogeneousLinks(benchmark::State& state) {
  const Instance in = make_instance(true, false);
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = redist::star::plan_mbbsa(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}
BENCHMARK(BM_MbbsaHomogeneousLinks)->Unit(benchmark::kMillisecond);

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

void BM_BbaConcentrated(benchmark::State& state) {
  const Instance in = concentrated(true);
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = redist::star::plan_bba(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}
BENCHMARK(BM_BbaConcentrated)->Unit(benchmark::kMillisecond);

void BM_MbbsaConcentrated(benchmark::State& state) {
  const Instance in = concentrated(false);
  std::size_t moved = 0;
  for (auto _ : state) {
    const auto s = redist::star::plan_mbbsa(in);
    moved = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["moved"] = static_cast<double>(moved);
}
BENCHMARK(BM_MbbsaConcentrated)->Unit(benchmark::kMillisecond);

}  // namespace
