// `auto` (the default SliceRing planner, auto.hpp) at sizes on both sides of its exact limit
// (p <= 16: exact; above: greedy and tsp plus the cheapest-links bound). Reports the lower-bound
// gap (PlanClaims::gap(): makespan / lower_bound - 1) of the last run as a counter.
// Instances: w uniform in [0.5, 5], c log-uniform in [0.1, 10] (asymmetric), W/H as given.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/slicering/auto.hpp"
#include "redist/testing/random_cluster.hpp"

namespace {

void BM_Auto(benchmark::State& state) {
  std::mt19937_64 rng(42);
  const auto cl = redist::slicering::testing::random_cluster(
      rng, static_cast<std::size_t>(state.range(0)), static_cast<double>(state.range(1)), 1.0);
  double gap = 0.0;
  for (auto _ : state) {
    const auto s = redist::slicering::plan_auto(cl);
    const double t_step = s.makespan;  // a const copy (see slicering_greedy_benchmark.cpp)
    benchmark::DoNotOptimize(t_step);
    gap = s.gap().value_or(0.0);
  }
  state.counters["gap"] = gap;
}

}  // namespace

BENCHMARK(BM_Auto)
    ->Args({8, 10})
    ->Args({16, 10})
    ->Args({16, 1000})
    ->Args({17, 1000})
    ->Args({100, 1000})
    ->Args({1000, 10000})
    ->Unit(benchmark::kMillisecond);
