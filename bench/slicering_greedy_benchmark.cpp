// Issue #6 target: `greedy` (SLICE §6.2, all ring sizes) for p = 1000 in under 1 s.
// Instances: w uniform in [0.5, 5], c log-uniform in [0.1, 10] (asymmetric), W/H = 10^4.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/slicering/greedy.hpp"
#include "redist/testing/random_cluster.hpp"

namespace {

void BM_Greedy(benchmark::State& state) {
  std::mt19937_64 rng(42);
  const auto cl = redist::slicering::testing::random_cluster(
      rng, static_cast<std::size_t>(state.range(0)), 1e4, 1.0);
  for (auto _ : state) {
    auto s = redist::slicering::plan_greedy(cl);
    const double t_step = s.makespan;  // a const copy: DoNotOptimize on a non-const double lvalue
    benchmark::DoNotOptimize(t_step);  // can clobber it with this GCC/benchmark pair
  }
}

}  // namespace

BENCHMARK(BM_Greedy)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
