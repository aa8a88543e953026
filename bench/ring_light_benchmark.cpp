// Issue #3 targets: `light` with the fast solver for n = 10^6 in under 1 s, and the fast solver
// at least 100x faster than the LP one (COIN-OR CLP) at n = 10^4.
//
// Instances: loads uniform in [500, 1000]; each processor moves up to a quarter of its load to
// its successor (targets follow), costs uniform in [0.1, 10] both ways. Such redistributions are
// light, so the timing is that of System 6 + Lemma 9, not of the fallback list scheduler.
#include <benchmark/benchmark.h>

#include <chrono>
#include <random>

#include "redist/ring/light.hpp"
#include "redist/testing/random_ring.hpp"

namespace {

redist::ring::Instance make_instance(std::size_t n) {
  std::mt19937_64 rng(42);
  redist::testkit::RandomRingOptions o;
  o.n_min = o.n_max = n;
  o.load_min = 500;
  o.load_max = 1000;
  o.bidirectional = true;
  auto in = redist::testkit::random_ring(rng, o);
  in.targets = in.loads;
  for (std::size_t i = 0; i < n; ++i) {
    const auto moved = std::uniform_int_distribution<std::int64_t>(0, in.loads[i] / 4)(rng);
    in.targets[i] -= moved;
    in.targets[in.succ(i)] += moved;
  }
  return in;
}

void BM_PlanLightFast(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  bool light = false;
  for (auto _ : state) {
    const auto s = redist::ring::plan_light(in, redist::ring::Solver::fast);
    light = *s.light;
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["light"] = light ? 1 : 0;
}
BENCHMARK(BM_PlanLightFast)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_PlanLightLp(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(redist::ring::plan_light(in, redist::ring::Solver::lp).makespan);
  }
}
BENCHMARK(BM_PlanLightLp)->Arg(10'000)->Unit(benchmark::kMillisecond);

// Both solvers on the same instance in one run; counter lp_over_fast = LP time / fast time
// (target >= 100), same_makespan = 1 when they agree.
void BM_LightLpOverFast(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)));
  using clock = std::chrono::steady_clock;
  double fast_s = 0, lp_s = 0;
  bool same = true;
  for (auto _ : state) {
    const auto t0 = clock::now();
    const auto f = redist::ring::plan_light(in, redist::ring::Solver::fast);
    const auto t1 = clock::now();
    const auto l = redist::ring::plan_light(in, redist::ring::Solver::lp);
    const auto t2 = clock::now();
    fast_s += std::chrono::duration<double>(t1 - t0).count();
    lp_s += std::chrono::duration<double>(t2 - t1).count();
    same = same && f.makespan == l.makespan;
  }
  state.counters["lp_over_fast"] = lp_s / fast_s;
  state.counters["same_makespan"] = same ? 1 : 0;
}
BENCHMARK(BM_LightLpOverFast)->Arg(10'000)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
