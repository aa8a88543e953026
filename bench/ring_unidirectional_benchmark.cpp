// Issue #2 target: plan `unidirectional` for n = 10^6 with heterogeneous costs in under 1 s.
#include <benchmark/benchmark.h>

#include <random>

#include "redist/ring/bounds.hpp"
#include "redist/ring/unidirectional.hpp"
#include "redist/testing/random_ring.hpp"

namespace {

redist::ring::Instance make_instance(std::size_t n, std::int64_t load_min) {
  std::mt19937_64 rng(42);
  redist::testkit::RandomRingOptions o;
  o.n_min = o.n_max = n;
  o.load_min = load_min;
  o.target_min = load_min;
  return redist::testkit::random_ring(rng, o);
}

void BM_PlanUnidirectional(benchmark::State& state) {
  const auto in = make_instance(static_cast<std::size_t>(state.range(0)), state.range(1));
  std::size_t runs = 0;
  for (auto _ : state) {
    const auto s = redist::ring::plan_unidirectional(in);
    runs = s.transfers.size();
    benchmark::DoNotOptimize(s.makespan);
  }
  state.counters["runs"] = static_cast<double>(runs);
}
// Arguments: n, minimal load and target (1: the paper's assumptions; 0: relays may hold nothing).
BENCHMARK(BM_PlanUnidirectional)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 0})
    ->Unit(benchmark::kMillisecond);

void BM_System6IntegerOptimum(benchmark::State& state) {
  auto in = make_instance(static_cast<std::size_t>(state.range(0)), 1);
  in.bidirectional = true;
  in.cost_prev = in.cost_next;
  std::reverse(in.cost_prev.begin(), in.cost_prev.end());
  for (auto _ : state) benchmark::DoNotOptimize(redist::ring::system6_integer_optimum(in).tau);
}
BENCHMARK(BM_System6IntegerOptimum)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
