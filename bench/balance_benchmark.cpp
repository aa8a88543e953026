// Targets of the rebalancing family: `advise` (balanced targets + one ring plan) under 5 ms at
// p = 1024 (also measured at p = 16384), and the hindsight optimum (`oracle`) under 10 s at
// K = 100, p = 32; and whole simulated runs under the online policies.
//
// Instances: redist/balance/traces.hpp; RRV04 §8's drift (two speed changes per processor) with
// a computation-to-communication ratio of 1, 1000 items per processor for advise (the loads are
// the balanced targets of iteration 0, the speeds those of the last iteration, so about half the
// processors changed speed twice), and N = 1000 items, K = 100 for the oracle. The random walk
// trace gives the oracle's worst case: every iteration has new targets, so every pair is planned.
#include <benchmark/benchmark.h>

#include "redist/balance.hpp"
#include "redist/balance/traces.hpp"

namespace {

using namespace redist::balance;

AdviseInput advise_instance(std::size_t p) {
  TraceSpec spec;
  spec.processors = p;
  spec.items = 1000 * static_cast<std::int64_t>(p);
  spec.seed = 42;
  const Trace trace = random_trace(spec);
  return {trace.ring, trace.initial_loads, trace.speeds.back(), 50};
}

void BM_Advise(benchmark::State& state) {
  const AdviseInput in = advise_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(advise(in).plan_makespan);
}
BENCHMARK(BM_Advise)->Arg(1024)->Arg(16384)->Unit(benchmark::kMillisecond);

void BM_BalancedTargets(benchmark::State& state) {
  const AdviseInput in = advise_instance(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(balanced_targets(1000 * state.range(0), in.speeds));
}
BENCHMARK(BM_BalancedTargets)->Arg(1024)->Arg(16384)->Unit(benchmark::kMillisecond);

void BM_Oracle(benchmark::State& state) {
  TraceSpec spec;
  spec.drift = static_cast<Drift>(state.range(0));
  spec.processors = 32;
  spec.iterations = 100;
  spec.seed = 7;
  const Trace trace = random_trace(spec);
  for (auto _ : state) benchmark::DoNotOptimize(hindsight_optimum(trace).total_time);
  state.SetLabel(to_string(spec.drift));
}
BENCHMARK(BM_Oracle)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A whole simulated run (K = 100, p = 32, steps drift) under an online policy: the policy's own
// work next to the plans it asks for (cost-benefit plans at every imbalanced iteration).
void BM_Simulate(benchmark::State& state, const char* policy) {
  TraceSpec spec;
  spec.processors = 32;
  spec.iterations = 100;
  spec.seed = 7;
  const Trace trace = random_trace(spec);
  for (auto _ : state) benchmark::DoNotOptimize(simulate(trace, policy).total_time);
}
BENCHMARK_CAPTURE(BM_Simulate, replay, "replay")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Simulate, cost_benefit, "cost-benefit")->Unit(benchmark::kMillisecond);

}  // namespace
