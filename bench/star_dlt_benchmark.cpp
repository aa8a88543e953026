// Target: `dlt --solver fast` (STAR §5, LP 7) with m = 10^6 workers under 1 s, transfers
// included (at most S + R - 1 of them); the LP solver (CLP) at m = 10^4 for comparison.
//
// Instances: b and s uniform in [0.1, 10], alpha uniform in [0, 1000] (a quarter of the workers
// empty). BM_DltFast covers T and the deltas, BM_DltFastTransfers adds the transfers.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/dlt/planner.hpp"

namespace {

redist::dlt::Instance make_instance(std::size_t m) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.1, 10.0), a(0.0, 1000.0);
  redist::dlt::Instance in;
  for (std::size_t i = 0; i < m; ++i) {
    in.b.push_back(u(rng));
    in.s.push_back(u(rng));
    in.alpha.push_back(rng() % 4 == 0 ? 0.0 : a(rng));
  }
  return in;
}

void BM_DltFast(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(redist::dlt::solve_fast(in).makespan);
}
BENCHMARK(BM_DltFast)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_DltFastTransfers(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    redist::dlt::Schedule s = redist::dlt::solve_fast(in);
    redist::dlt::add_transfers(s);
    benchmark::DoNotOptimize(s.transfers.size());
  }
}
BENCHMARK(BM_DltFastTransfers)->Arg(1000000)->Unit(benchmark::kMillisecond);

void BM_DltLp(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(redist::dlt::solve_lp(in).makespan);
}
BENCHMARK(BM_DltLp)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
