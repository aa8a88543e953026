// What each rank of an MPI exchange (redist/mpi/exchange.hpp) computes before a byte moves,
// without MPI, as a function of the ranks p (32 partners each, m = 32 p messages of up to 1 MiB at
// 1-4 GB/s; the plan of `auto`):
// - BM_EveryRankPlans: planning and checking the whole exchange, what every rank paid when each
//   one planned for itself;
// - BM_RankShare: what every rank computes when all hold the instance and the plan (the first
//   constructor): their hash and its own pieces (own_transfers);
// - BM_RootPlans: what rank 0 computes when it plans for all (the second constructor): the plan,
//   its check and every rank's pieces. The other ranks only handle their own row (O(p)) and
//   pieces.
// Run: build/bench/exchange_rank_setup_benchmark --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <random>

#include "redist/exchange/planner.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/mpi/transfers.hpp"
#include "redist/testing/random_exchange.hpp"

namespace {

redist::exchange::Instance instance_of(const benchmark::State& state) {
  std::mt19937_64 rng(1);
  redist::testkit::RandomExchangeOptions o;
  o.nodes_min = o.nodes_max = static_cast<std::size_t>(state.range(0));
  o.partners = 32;
  o.bytes_max = std::int64_t{1} << 20;
  return redist::testkit::random_exchange(rng, o);
}

void BM_EveryRankPlans(benchmark::State& state) {
  const auto in = instance_of(state);
  for (auto _ : state) {
    const auto plan = redist::exchange::plan(in);
    benchmark::DoNotOptimize(redist::exchange::check(in, plan).valid);
  }
  state.counters["messages"] = static_cast<double>(in.messages.size());
}

void BM_RankShare(benchmark::State& state) {
  const auto in = instance_of(state);
  const auto plan = redist::exchange::plan(in);
  const auto rank = static_cast<std::int64_t>(in.nodes / 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(redist::mpi::plan_hash(in, plan));
    benchmark::DoNotOptimize(redist::mpi::own_transfers(in, plan, rank, 1 << 30).sends.size());
  }
  state.counters["messages"] = static_cast<double>(in.messages.size());
}

void BM_RootPlans(benchmark::State& state) {
  const auto in = instance_of(state);
  for (auto _ : state) {
    const auto plan = redist::exchange::plan(in);
    benchmark::DoNotOptimize(redist::exchange::check(in, plan).valid);
    benchmark::DoNotOptimize(redist::mpi::all_transfers(in, plan, in.nodes, 1 << 30).size());
  }
  state.counters["messages"] = static_cast<double>(in.messages.size());
}

}  // namespace

BENCHMARK(BM_EveryRankPlans)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RankShare)->Arg(256)->Arg(1024)->Arg(4096)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RootPlans)->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);
