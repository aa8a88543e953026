// Issue #4 targets: `optimal` single-send for n = 50, loads <= 200 under 20 us (LAU Table 4:
// 22.2 ms on a 167 MHz SPARC); n = 10^6, loads <= 10^9 under 2 s; multi-send `optimal` for
// n = 10^4, loads <= 10^4 under 1 s. The published algorithm (optimal-window) for comparison.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/lau/optimal.hpp"
#include "redist/lau/optimal_window.hpp"

namespace {

redist::lau::Instance make_instance(std::size_t n, std::int64_t max_load) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::int64_t> load(0, max_load);
  std::vector<std::int64_t> loads(n);
  std::int64_t total = 0;
  for (auto& l : loads) total += (l = load(rng));
  const auto nn = static_cast<std::int64_t>(n);
  loads[0] += (nn - total % nn) % nn;
  return redist::lau::balanced_instance(std::move(loads));
}

void BM_OptimalSingle(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)), state.range(1));
  for (auto _ : state) {
    const auto p = redist::lau::plan_optimal(in, redist::lau::Mode::single);
    benchmark::DoNotOptimize(p.h);
  }
}
BENCHMARK(BM_OptimalSingle)->Args({50, 200})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OptimalSingle)->Args({1'000'000, 1'000'000'000})->Unit(benchmark::kMillisecond);

void BM_OptimalMulti(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)), state.range(1));
  for (auto _ : state) {
    const auto p = redist::lau::plan_optimal(in, redist::lau::Mode::multi);
    benchmark::DoNotOptimize(p.h);
  }
}
BENCHMARK(BM_OptimalMulti)->Args({50, 200})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OptimalMulti)->Args({10'000, 10'000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OptimalMulti)->Args({1'000'000, 1'000'000'000})->Unit(benchmark::kMillisecond);

void BM_OptimalWindowSingle(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)), state.range(1));
  for (auto _ : state) {
    const auto p = redist::lau::plan_optimal_window(in, redist::lau::Mode::single);
    benchmark::DoNotOptimize(p.h);
  }
}
BENCHMARK(BM_OptimalWindowSingle)->Args({50, 200})->Unit(benchmark::kMicrosecond);

}  // namespace
