// Cost of the independent schedule validator (redist/ring/validate.hpp) on valid schedules of
// 10^6 runs. Its cost must not depend on item counts: compare the two counts of Rotation.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "redist/ring/validate.hpp"

namespace {

using redist::ring::Direction;
using redist::ring::Instance;
using redist::ring::Run;
using redist::ring::Schedule;
using redist::ring::Stated;

constexpr std::size_t kRuns = 1'000'000;

void run_validation(benchmark::State& state, const Instance& in, const Schedule& s,
                    const Stated& stated = {}) {
  if (!redist::ring::check(in, s, stated).valid) {
    throw std::logic_error("benchmark schedule is invalid");
  }
  for (auto _ : state) {
    auto result = redist::ring::check(in, s, stated);
    benchmark::DoNotOptimize(result);
  }
  state.counters["runs"] = static_cast<double>(s.transfers.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(s.transfers.size()));
}

// n = 10^6 unidirectional ring, unit costs, every processor holds one item and sends `count`
// items to its successor back to back from time 0: each item it sends past the first arrived
// exactly at its departure time.
void BM_Rotation(benchmark::State& state) {
  const std::int64_t count = state.range(0);
  const std::size_t n = kRuns;
  Instance in{false,
              std::vector<std::int64_t>(n, 1),
              std::vector<std::int64_t>(n, 1),
              std::vector<double>(n, 1.0),
              {}};
  Schedule s;
  s.makespan = static_cast<double>(count);
  s.flows.assign(n, count);
  for (std::size_t i = 0; i < n; ++i) {
    s.transfers.push_back(Run{static_cast<std::int64_t>(i), Direction::next, 0.0, count, 0.0});
  }
  run_validation(state, in, s);
}
BENCHMARK(BM_Rotation)->Arg(1000)->Arg(1'000'000'000'000'000)->Unit(benchmark::kMillisecond);

// n = 10^6 unidirectional ring: even processors hold 1000 items and send them every 2 time units
// over links of cost 1; odd processors hold nothing and forward each item at its arrival, every 2
// time units, over links of cost 1.5.
void BM_PeriodicRelays(benchmark::State& state) {
  const std::size_t n = kRuns;
  const std::int64_t k = 1000;
  Instance in;
  in.loads.resize(n);
  in.cost_next.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    in.loads[i] = i % 2 == 0 ? k : 0;
    in.cost_next[i] = i % 2 == 0 ? 1.0 : 1.5;
  }
  in.targets = in.loads;
  Schedule s;
  for (std::size_t i = 0; i < n; ++i) {
    s.transfers.push_back(
        Run{static_cast<std::int64_t>(i), Direction::next, i % 2 == 0 ? 0.0 : 1.0, k, 2.0});
  }
  run_validation(state, in, s, Stated{false, false, {}});
}
BENCHMARK(BM_PeriodicRelays)->Unit(benchmark::kMillisecond);

// n = 1000 bidirectional ring, 1000 one-item runs per processor (10^6 runs in a shuffled order):
// processor i holds one item and at each time t = 0, 1, ..., 999 sends one item, alternately to
// its successor and to its predecessor; every item it sends after time 0 arrived at that time.
void BM_ManyRunsPerProcessor(benchmark::State& state) {
  const std::size_t n = 1000;
  const std::size_t per = kRuns / n;
  Instance in{true, std::vector<std::int64_t>(n, 1), std::vector<std::int64_t>(n, 1),
              std::vector<double>(n, 1.0), std::vector<double>(n, 1.0)};
  Schedule s;
  s.makespan = static_cast<double>(per);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t t = 0; t < per; ++t) {
      s.transfers.push_back(Run{static_cast<std::int64_t>(i),
                                t % 2 == 0 ? Direction::next : Direction::prev,
                                static_cast<double>(t), 1, 0.0});
    }
  }
  std::mt19937_64 rng(42);
  std::shuffle(s.transfers.begin(), s.transfers.end(), rng);
  run_validation(state, in, s, Stated{true, false, {}});
}
BENCHMARK(BM_ManyRunsPerProcessor)->Unit(benchmark::kMillisecond);

}  // namespace
