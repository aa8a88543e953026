// Benchmark of RRV04 Algorithm 3 (plan_bidirectional_homogeneous): n = 10^4 processors,
// delta_max about 10^3 rounds, i.e. about 10^7 processor-rounds. Reports the median of 5
// repetitions (target: under 2 s).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "redist/ring/bidirectional_homogeneous.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/model.hpp"

namespace {

using redist::ring::Instance;

// Loads uniform in 100..1000; imbalances uniform in -w..w (then made to sum to 0), so the prefix
// sums are a random walk whose range (the largest slice imbalance) is about 2 * 10^3 for n = 10^4
// and w = 20: delta_max = ceil(range / 2) is about 10^3.
Instance make_instance(std::size_t n, std::int64_t w, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> delta(n);
  std::int64_t sum = 0;
  for (auto& d : delta) sum += d = std::uniform_int_distribution<std::int64_t>(-w, w)(rng);
  for (std::size_t i = 0; sum != 0; i = (i + 1) % n) {  // spread the correction
    const std::int64_t step = sum > 0 ? 1 : -1;
    delta[i] -= step;
    sum -= step;
  }
  Instance in;
  in.bidirectional = true;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t load = std::uniform_int_distribution<std::int64_t>(100, 1000)(rng);
    in.loads.push_back(load);
    in.targets.push_back(load - delta[i]);
  }
  in.cost_next.assign(n, 1.0);
  in.cost_prev.assign(n, 1.0);
  return in;
}

void BM_BidirectionalHomogeneous(benchmark::State& state) {
  const Instance in = make_instance(static_cast<std::size_t>(state.range(0)), 20, 2024);
  double makespan = 0;
  std::size_t runs = 0;
  bool retimed = false;
  for (auto _ : state) {
    const auto schedule = redist::ring::plan_bidirectional_homogeneous(in);
    makespan = schedule.makespan;
    runs = schedule.transfers.size();
    retimed = !schedule.notes.empty();
    benchmark::DoNotOptimize(schedule.transfers.data());
  }
  state.counters["n"] = static_cast<double>(in.size());
  state.counters["delta_max"] = redist::ring::lemma6_bound(in);  // c = 1
  state.counters["rounds"] = makespan;
  state.counters["runs"] = static_cast<double>(runs);
  state.counters["retimed"] = retimed ? 1 : 0;  // 1: the rounds broke the holding rule
}

BENCHMARK(BM_BidirectionalHomogeneous)
    ->Arg(10'000)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Iterations(1);

}  // namespace
