// Issue #6 target: `exact` on each published platform (SLICE Tables 1-4) for all ring sizes q,
// under 60 s in total. W/H spans the regimes of Figure 3: communication-bound (W/H = 1, the
// sequential solution wins), the cross-over (W/H = 100) and computation-bound (W/H = 10^4).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "redist/io/slicering_json.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/testing/random_cluster.hpp"

namespace {

redist::slicering::Cluster platform(const std::string& name, double W) {
  auto cl = redist::io::read_cluster(redist::io::read_document(
      (redist::testkit::data_dir() / "slicering" / (name + ".json")).string()));
  cl.W = W;
  cl.H = 1.0;
  return cl;
}

void run(benchmark::State& state, const std::string& name) {
  const auto cl = platform(name, static_cast<double>(state.range(0)));
  for (auto _ : state) {
    auto table = redist::slicering::exact_table(cl);
    const double t_step = table.best.makespan;
    benchmark::DoNotOptimize(t_step);
  }
}

void BM_ExactLyonAllQ(benchmark::State& state) { run(state, "lyon"); }
void BM_ExactStrasbourgAllQ(benchmark::State& state) { run(state, "strasbourg"); }

// Random clusters (w in [0.5, 5], c log-uniform in [0.1, 10], asymmetric): all q, p = 16 and 20.
void BM_ExactRandomAllQ(benchmark::State& state) {
  std::mt19937_64 rng(42);
  const auto cl = redist::slicering::testing::random_cluster(
      rng, static_cast<std::size_t>(state.range(0)), static_cast<double>(state.range(1)), 1.0);
  for (auto _ : state) {
    auto table = redist::slicering::exact_table(cl);
    const double t_step = table.best.makespan;
    benchmark::DoNotOptimize(t_step);
  }
}

}  // namespace

BENCHMARK(BM_ExactRandomAllQ)
    ->Args({16, 10})
    ->Args({16, 1000})
    ->Args({20, 10})
    ->Args({20, 1000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactLyonAllQ)->Arg(1)->Arg(100)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactStrasbourgAllQ)->Arg(1)->Arg(100)->Arg(10000)->Unit(benchmark::kMillisecond);
