// Targets (docs/exchange.md, "Measurements"): `preemptive` on p = 1024 nodes with 64 partners each
// (65,536 messages) under 1 s, and on p = 256 dense (65,280 messages) under 1 s, with memory linear
// in the messages; `check` in O(pieces log pieces); `whole` for comparison; the step planners:
// the edge colouring of `min-steps` on the same two patterns, and `min-steps`, `caterpillar` and
// `whole` with their makespan over the bound, also with a latency (docs/exchange.md, "Step
// schedules").
//
// Instances (testing/random_exchange.hpp, seed 1): bytes log-uniform in [1, 2^20], bandwidths
// uniform in [1, 4]; the pattern is args (nodes, partners), and for the step algorithms (ggp,
// oggp, steps: redist/exchange/kpbs.hpp) a third argument, the latency in seconds (a message
// lasts up to 2^20 s).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "redist/common/error.hpp"
#include "redist/exchange/busiest_first.hpp"
#include "redist/exchange/caterpillar.hpp"
#include "redist/exchange/greedy_steps.hpp"
#include "redist/exchange/kpbs.hpp"
#include "redist/exchange/min_steps.hpp"
#include "redist/exchange/ordered_execution.hpp"
#include "redist/exchange/planner.hpp"
#include "redist/exchange/preemptive.hpp"
#include "redist/exchange/validate.hpp"
#include "redist/exchange/whole.hpp"
#include "redist/testing/random_exchange.hpp"

namespace {

redist::exchange::Instance make_instance(const benchmark::State& state) {
  std::mt19937_64 rng(1);
  redist::testkit::RandomExchangeOptions o;
  o.nodes_min = o.nodes_max = static_cast<std::size_t>(state.range(0));
  o.partners = static_cast<std::size_t>(state.range(1));
  o.bytes_max = std::int64_t{1} << 20;
  return redist::testkit::random_exchange(rng, o);
}

void BM_Preemptive(benchmark::State& state) {
  const auto in = make_instance(state);
  std::size_t pieces = 0;
  for (auto _ : state) pieces = redist::exchange::plan_preemptive(in).pieces.size();
  state.counters["pieces_per_message"] =
      static_cast<double>(pieces) / static_cast<double>(in.messages.size());
}
BENCHMARK(BM_Preemptive)
    ->Args({1024, 64})
    ->Args({256, 255})
    ->Args({4096, 16})
    ->Unit(benchmark::kMillisecond);

void BM_Whole(benchmark::State& state) {
  const auto in = make_instance(state);
  for (auto _ : state) benchmark::DoNotOptimize(redist::exchange::plan_whole(in).makespan);
}
BENCHMARK(BM_Whole)->Args({1024, 64})->Args({256, 255})->Unit(benchmark::kMillisecond);

void BM_MinSteps(benchmark::State& state) {
  const auto in = make_instance(state);
  std::size_t colours = 0;
  for (auto _ : state) {
    const auto c = redist::exchange::min_step_colours(in);
    colours = c.empty() ? 0 : 1 + *std::max_element(c.begin(), c.end());
  }
  state.counters["steps"] = static_cast<double>(colours);
}
BENCHMARK(BM_MinSteps)->Args({1024, 64})->Args({256, 255})->Unit(benchmark::kMillisecond);

// The step plans, args (nodes, partners, latency); counter: makespan / lower bound.
template <redist::exchange::Plan (*Planner)(const redist::exchange::Instance&)>
void BM_StepPlan(benchmark::State& state) {
  auto in = make_instance(state);
  in.latency = static_cast<double>(state.range(2));
  redist::exchange::Plan plan;
  for (auto _ : state) plan = Planner(in);
  state.counters["over_bound"] = plan.makespan / plan.lower_bound.value_or(0.0);
}
void step_args(benchmark::internal::Benchmark* b) {
  b->Args({1024, 64, 0})->Args({256, 255, 0})->Args({64, 8, 100000})->Args({64, 63, 100000});
  b->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_StepPlan, redist::exchange::plan_min_steps)->Apply(step_args);
BENCHMARK_TEMPLATE(BM_StepPlan, redist::exchange::plan_caterpillar)->Apply(step_args);
BENCHMARK_TEMPLATE(BM_StepPlan, redist::exchange::plan_whole)->Apply(step_args);

void BM_CheckPreemptive(benchmark::State& state) {
  const auto in = make_instance(state);
  const auto plan = redist::exchange::plan_preemptive(in);
  for (auto _ : state) benchmark::DoNotOptimize(redist::exchange::check(in, plan).valid);
  state.counters["pieces"] = static_cast<double>(plan.pieces.size());
}
BENCHMARK(BM_CheckPreemptive)->Args({1024, 64})->Unit(benchmark::kMillisecond);

// A step planner: its steps and its makespan over the step lower bound eta.
template <redist::exchange::Plan (*planner)(const redist::exchange::Instance&)>
void BM_Steps(benchmark::State& state) {
  auto in = make_instance(state);
  in.latency = static_cast<double>(state.range(2));
  redist::exchange::Plan plan;
  for (auto _ : state) {
    try {
      plan = planner(in);
    } catch (const redist::InputError& e) {  // beyond the algorithm's limit
      state.SkipWithError(e.what());
      return;
    }
  }
  state.counters["steps"] = static_cast<double>(plan.steps->count);
  state.counters["ratio_to_eta"] = plan.makespan / plan.steps->lower_bound;
}
BENCHMARK(BM_Steps<redist::exchange::plan_ggp>)
    ->Name("BM_Ggp")
    ->Args({64, 16, 10000})
    ->Args({256, 16, 10000})
    ->Args({64, 63, 10000})
    ->Args({512, 64, 10000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Steps<redist::exchange::plan_oggp>)
    ->Name("BM_Oggp")
    ->Args({64, 16, 10000})
    ->Args({256, 16, 10000})
    ->Args({64, 63, 10000})
    ->Args({128, 64, 10000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Steps<redist::exchange::plan_steps>)
    ->Name("BM_GreedySteps")
    ->Args({64, 16, 10000})
    ->Args({256, 16, 10000})
    ->Args({64, 63, 10000})
    ->Unit(benchmark::kMillisecond);

}  // namespace

// Scaling of the one-port planners in the number of messages m (args: m, partners; m / partners
// nodes), from 2^10 to 5 x 10^6 (the most messages an instance may have), with Google Benchmark's
// complexity fit (whole and auto, the two planners without a size limit below that).
template <redist::exchange::Plan (*Planner)(const redist::exchange::Instance&)>
void BM_Scaling(benchmark::State& state) {
  std::mt19937_64 rng(1);
  redist::testkit::RandomExchangeOptions o;
  o.partners = static_cast<std::size_t>(state.range(1));
  o.nodes_min = o.nodes_max = static_cast<std::size_t>(state.range(0)) / o.partners + 1;
  o.bytes_max = std::int64_t{1} << 20;
  const auto in = redist::testkit::random_exchange(rng, o);
  double gap = 0;
  for (auto _ : state) {
    const auto plan = Planner(in);
    gap = plan.makespan / plan.lower_bound.value_or(0.0) - 1;
  }
  state.counters["gap_percent"] = 100 * gap;
  state.SetComplexityN(static_cast<std::int64_t>(in.messages.size()));
}
void scaling_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t m = 1 << 10; m <= std::int64_t{1} << 22; m *= 4) b->Args({m, 32});
  b->Args({4'999'968, 32});  // 5 x 10^6 messages: the most an instance may have
  b->Complexity(benchmark::oNLogN)->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_Scaling, redist::exchange::plan_whole)->Apply(scaling_args);
BENCHMARK_TEMPLATE(BM_Scaling, redist::exchange::plan_busiest_first)->Apply(scaling_args);

// The MPI executor's run of a plan on the model (ordered_execution.hpp): whole's plans of the
// BM_Scaling instances (32 partners) under a backbone of nodes / 8 transfers (arg: messages).
void BM_OrderedExecution(benchmark::State& state) {
  std::mt19937_64 rng(1);
  redist::testkit::RandomExchangeOptions o;
  o.partners = 32;
  o.nodes_min = o.nodes_max = static_cast<std::size_t>(state.range(0)) / o.partners + 1;
  o.bytes_max = std::int64_t{1} << 20;
  o.backbone = true;
  auto in = redist::testkit::random_exchange(rng, o);
  if (in.backbone) {
    in.backbone->transfers = std::max<std::int64_t>(1, static_cast<std::int64_t>(in.nodes / 8));
  }
  const auto plan = redist::exchange::plan_whole(in);
  for (auto _ : state) {
    benchmark::DoNotOptimize(redist::exchange::ordered_execution_makespan(in, plan));
  }
  state.SetComplexityN(static_cast<std::int64_t>(plan.pieces.size()));
}
BENCHMARK(BM_OrderedExecution)
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 22)
    ->Complexity(benchmark::oNLogN)
    ->Unit(benchmark::kMillisecond);

// With a start-up cost: messages of 1 to 100 MiB (log-uniform), ports of 5 to 20 GB/s, latency 5
// microseconds per piece (args: nodes, partners). Counters: the makespan over the ports bound.
redist::exchange::Instance latency_instance(const benchmark::State& state) {
  std::mt19937_64 rng(5);
  redist::testkit::RandomExchangeOptions o;
  o.nodes_min = o.nodes_max = static_cast<std::size_t>(state.range(0));
  o.partners = static_cast<std::size_t>(state.range(1));
  o.bytes_max = 100 << 20;
  o.bandwidth_spread = 4.0;
  auto in = redist::testkit::random_exchange(rng, o);
  for (auto& m : in.messages) m.bytes = std::max<std::int64_t>(m.bytes, 1 << 20);
  for (double& b : in.send_bandwidth) b *= 5e9;
  for (double& b : in.recv_bandwidth) b *= 5e9;
  in.latency = 5e-6;
  return in;
}
template <redist::exchange::Plan (*Planner)(const redist::exchange::Instance&)>
void BM_Latency(benchmark::State& state) {
  const auto in = latency_instance(state);
  double ratio = 0;
  for (auto _ : state) {
    const auto plan = Planner(in);
    ratio = plan.makespan / plan.lower_bound.value_or(0.0);
  }
  state.counters["over_bound"] = ratio;
}
redist::exchange::Plan plan_auto(const redist::exchange::Instance& in) {
  return redist::exchange::plan(in);
}
void latency_args(benchmark::internal::Benchmark* b) {
  b->Args({256, 8})->Args({1024, 32})->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_Latency, plan_auto)->Apply(latency_args);
BENCHMARK_TEMPLATE(BM_Scaling, plan_auto)->Apply(scaling_args);
BENCHMARK_TEMPLATE(BM_Latency, redist::exchange::plan_whole)->Apply(latency_args);
BENCHMARK_TEMPLATE(BM_Latency, redist::exchange::plan_busiest_first)->Apply(latency_args);
BENCHMARK_TEMPLATE(BM_Latency, redist::exchange::plan_preemptive)->Apply(latency_args);
BENCHMARK_TEMPLATE(BM_Latency, redist::exchange::plan_oggp)->Apply(latency_args);
BENCHMARK_TEMPLATE(BM_Latency, redist::exchange::plan_ggp)->Apply(latency_args);

// Scaling of ggp and oggp in the number of messages m (args: m, partners, latency in seconds,
// backbone 0 or 1; the instances of BM_AtLimits, below), 1,000 to 16,000 messages on their
// slowest sparse pattern, 5 partners per node and a backbone of 1 to 3 transfers, latency 100 s
// against messages of up to 2^20 s, with Google Benchmark's complexity fit. Counters: steps and
// the makespan over eta; an instance beyond the algorithm's limit is reported as an error.
redist::exchange::Instance limits_instance(const benchmark::State& state);
template <redist::exchange::Plan (*Planner)(const redist::exchange::Instance&)>
void BM_Kpbs(benchmark::State& state) {
  const auto in = limits_instance(state);
  redist::exchange::Plan plan;
  for (auto _ : state) {
    try {
      plan = Planner(in);
    } catch (const redist::InputError& e) {  // beyond the algorithm's limit
      state.SkipWithError(e.what());
      return;
    }
  }
  state.counters["steps"] = static_cast<double>(plan.steps->count);
  state.counters["ratio_to_eta"] = plan.makespan / plan.steps->lower_bound;
  state.SetComplexityN(static_cast<std::int64_t>(in.messages.size()));
}
void kpbs_args(benchmark::internal::Benchmark* b) {
  for (const std::int64_t m : {1'000, 2'000, 4'000, 8'000, 16'000}) b->Args({m, 5, 100, 1});
  b->Complexity()->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_Kpbs, redist::exchange::plan_ggp)->Apply(kpbs_args);
BENCHMARK_TEMPLATE(BM_Kpbs, redist::exchange::plan_oggp)->Apply(kpbs_args);

// The default at scale without latency (args: nodes, partners): 16,384 x 32 (524,288 messages)
// and 10^6 x 5. Counter: the makespan over the ports bound.
void BM_AutoAtScale(benchmark::State& state) {
  const auto in = make_instance(state);
  double ratio = 0;
  for (auto _ : state) {
    const auto plan = redist::exchange::plan(in);
    ratio = plan.makespan / plan.lower_bound.value_or(0.0);
  }
  state.counters["over_bound"] = ratio;
}
BENCHMARK(BM_AutoAtScale)
    ->Args({16384, 32})
    ->Args({16384, 4})
    ->Args({1000000, 5})
    ->Unit(benchmark::kMillisecond);

// What every rank computes before an mpi::Exchange moves a byte, without MPI (args: nodes,
// partners): the default plan and the validator's check of it, cold.
void BM_RankSetup(benchmark::State& state) {
  const auto in = make_instance(state);
  for (auto _ : state) {
    const auto plan = redist::exchange::plan(in);
    benchmark::DoNotOptimize(redist::exchange::check(in, plan).valid);
  }
}
BENCHMARK(BM_RankSetup)->Args({4096, 32})->Unit(benchmark::kMillisecond);

// Every algorithm of `exchange plan -a NAME` at growing sizes up to the documented limits
// (docs/exchange.md, "Limits"), one run each, CPU time (args: messages m, partners, latency in
// seconds, backbone 0 or 1; messages last up to 2^20 s). Partners 0: a dense-ish pattern,
// ceil(sqrt(m)) + 1 nodes each sending to all others; else m / partners nodes. Backbone 1: the
// nodes split in two clusters at random, 1 to 3 transfers at once. An algorithm that refuses the
// instance (its own limit, or more than kMaxNodes nodes at one partner each) is reported as an
// error with its message, after the time the refusal took. Together they take hours: leave them out
// of a full run (--benchmark_filter=-AtLimits) and run one size at a time under a timeout (`auto`
// is named "default" here), e.g. ggp at its limit on its slowest pattern:
//   timeout 120 build/bench/exchange_benchmark --benchmark_filter='AtLimits/ggp/50000/1/0/1/'
redist::exchange::Instance limits_instance(const benchmark::State& state) {
  const auto m = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(1);
  redist::testkit::RandomExchangeOptions o;
  if (state.range(1) == 0) {
    o.nodes_min = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(m)))) + 1;
    o.partners = o.nodes_min - 1;
  } else {
    o.partners = static_cast<std::size_t>(state.range(1));
    o.nodes_min = std::max<std::size_t>(m / o.partners, o.partners + 1);
  }
  o.nodes_max = o.nodes_min;
  o.bytes_max = std::int64_t{1} << 20;
  o.backbone = state.range(3) != 0;
  auto in = redist::testkit::random_exchange(rng, o);
  if (in.messages.size() > m) in.messages.resize(m);
  in.latency = static_cast<double>(state.range(2));
  return in;
}
void BM_AtLimits(benchmark::State& state, const char* algorithm) {
  const auto in = limits_instance(state);
  for (auto _ : state) {
    try {
      const auto plan = redist::exchange::plan(in, algorithm);
      state.counters["over_bound"] = plan.makespan / plan.lower_bound.value_or(0.0);
      state.counters["pieces"] = static_cast<double>(plan.pieces.size());
    } catch (const redist::InputError& e) {  // an algorithm's limit (or more nodes than allowed)
      state.SkipWithError(e.what());
    }
  }
  state.counters["messages"] = static_cast<double>(in.messages.size());
  state.counters["nodes"] = static_cast<double>(in.nodes);
}
void limits_args(benchmark::internal::Benchmark* b) {
  for (const std::int64_t m : {2'000, 4'000, 10'000, 15'000, 30'000, 50'000, 100'000, 300'000,
                               1'000'000, 2'000'000, 5'000'000}) {
    for (const std::int64_t partners : {5, 64, 0}) {
      for (const std::int64_t latency : {0, 100, 10000}) b->Args({m, partners, latency, 0});
    }
    for (const std::int64_t partners : {1, 5}) {
      for (const std::int64_t latency : {0, 100, 10000}) b->Args({m, partners, latency, 1});
    }
  }
  b->Iterations(1)->Unit(benchmark::kSecond)->MeasureProcessCPUTime();
}
BENCHMARK_CAPTURE(BM_AtLimits, default, "auto")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, preemptive, "preemptive")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, whole, "whole")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, busiest_first, "busiest-first")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, min_steps, "min-steps")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, caterpillar, "caterpillar")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, exact, "exact")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, ggp, "ggp")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, oggp, "oggp")->Apply(limits_args);
BENCHMARK_CAPTURE(BM_AtLimits, steps, "steps")->Apply(limits_args);
