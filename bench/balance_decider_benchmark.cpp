// One decision of the ring-free RebalanceDecider (redist/balance/decider.hpp) at p = 1024 ranks,
// under each online policy: target under 1 ms per decision; and at 16,384 and 65,536 ranks under
// cost-benefit: target under 5 ms at 65,536.
//
// A decision is what an application does after each iteration: observe (every rank's load and
// measured time, the speed estimator included), a proposal proportional to the speeds returned
// (what a partitioner given those part sizes would propose; O(p), counted), and decide. The
// migration cost is a constant callable: planning the migration is the caller's (the exchange
// family's planners), outside the decision. Instance: a random walk of speeds (traces.hpp,
// `walk`, 64 iterations replayed in a loop), each rank holding 1000 work units until a rebalance
// gives it the proposed loads; measured times are load / speed times a noise factor in
// [0.95, 1.05] (fixed seed), so the estimator and the policies see a realistic, changing run.
//
// Measured (`build/bench/balance_decider_benchmark --benchmark_repetitions=5`, medians of CPU
// time, 2-core machine shared with other jobs at load average 10-12; docs/balance.md has every
// case): cost-benefit at 1024 / 16,384 / 65,536 ranks 62-64 us / 1.0-1.2 ms / 4.5-5.0 ms (4.3 ms
// at load 4.5), before the estimator's median was kept incrementally and its comparisons settled
// without logarithms 225 us / 3.7-3.9 ms / 17.0-17.2 ms; without the estimator 14 us / 0.23-0.25
// ms / 0.92-0.97 ms (before 20 us / 0.33-0.35 ms / 1.34 ms).
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "redist/balance/controller.hpp"
#include "redist/balance/decider.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"

namespace {

using namespace redist::balance;

constexpr std::int64_t kIterations = kMaxIterations;

struct Run {
  Trace trace;
  std::vector<std::vector<double>> noise;  // per iteration of the trace, per rank
};

Run make_run(std::size_t ranks) {
  TraceSpec spec;
  spec.drift = Drift::walk;
  spec.processors = ranks;
  spec.iterations = 64;
  spec.items = 1000 * static_cast<std::int64_t>(ranks);
  spec.seed = 11;
  Run run{random_trace(spec), {}};
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> factor(0.95, 1.05);
  for (std::size_t t = 0; t < run.trace.speeds.size(); ++t) {
    std::vector<double> row;
    for (std::size_t i = 0; i < ranks; ++i) row.push_back(factor(random));
    run.noise.push_back(std::move(row));
  }
  return run;
}

Proposal proportional(const std::vector<double>& speeds, double total) {
  double sum = 0.0;
  for (double s : speeds) sum += s;
  Proposal p;
  p.loads.reserve(speeds.size());
  for (double s : speeds) p.loads.push_back(total * (s / sum));
  p.migration_cost = [] { return 0.5; };
  return p;
}

void BM_DeciderDecision(benchmark::State& state, const char* policy, bool estimate) {
  const auto ranks = static_cast<std::size_t>(state.range(0));
  const Run run = make_run(ranks);
  const double total = 1000.0 * static_cast<double>(ranks);
  RebalanceSettings settings;
  settings.estimate_speeds = estimate;
  const auto make = [&] {
    return std::make_unique<RebalanceDecider>(ranks, make_policy(policy, kIterations), kIterations,
                                              settings);
  };
  auto decider = make();
  Observation o;
  o.loads.assign(ranks, 1000.0);
  o.seconds.resize(ranks);
  std::int64_t rebalances = 0;
  for (auto _ : state) {
    if (decider->decisions() + 1 >= kIterations) {  // never within a benchmark's run time
      state.PauseTiming();
      decider = make();
      state.ResumeTiming();
    }
    const auto t = static_cast<std::size_t>(decider->decisions()) % run.trace.speeds.size();
    const std::vector<double>& speeds = run.trace.speeds[t];
    for (std::size_t i = 0; i < ranks; ++i) o.seconds[i] = o.loads[i] / speeds[i] * run.noise[t][i];
    const Proposal p = proportional(decider->observe(o), total);
    const Verdict v = decider->decide(p);
    if (v.rebalance) {
      decider->rebalanced(v);
      o.loads = v.targets;
      ++rebalances;
    }
    benchmark::DoNotOptimize(v.rebalance);
  }
  state.counters["rebalanced"] =
      benchmark::Counter(static_cast<double>(rebalances), benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(BM_DeciderDecision, never, "never", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, at, "at:500000", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, every_5, "every:5", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, threshold, "threshold:1.05", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, threshold_window_cooldown,
                  "threshold:1.35/window:5/cooldown:10", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, cost_benefit, "cost-benefit", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, period_rule, "period-rule", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, stable_horizon, "stable-horizon", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, replay, "replay", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, hedged_replay, "hedged-replay", true)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);

// Larger runs: 16,384 and 65,536 ranks under cost-benefit, with and without the estimator (the
// estimator's cost, its pooled noise median included, grows as O(p)).
BENCHMARK_CAPTURE(BM_DeciderDecision, cost_benefit_large, "cost-benefit", true)
    ->Arg(16384)
    ->Arg(65536)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DeciderDecision, cost_benefit_large_raw_speeds, "cost-benefit", false)
    ->Arg(16384)
    ->Arg(65536)
    ->Unit(benchmark::kMillisecond);

// Without the speed estimator (RebalanceSettings::estimate_speeds off): the speeds as measured.
BENCHMARK_CAPTURE(BM_DeciderDecision, cost_benefit_raw_speeds, "cost-benefit", false)
    ->Arg(1024)
    ->Unit(benchmark::kMicrosecond);

// The same on the ring through RebalanceController, with a policy that never plans: the
// decider's work plus the balanced targets (O(p log p)); the ring plan, when a policy asks, adds
// about the `advise` time of balance_benchmark.
void BM_ControllerDecision(benchmark::State& state, const char* policy) {
  const std::size_t ranks = 1024;
  const Run run = make_run(ranks);
  RebalanceController controller(run.trace.ring, make_policy(policy, kIterations), kIterations);
  std::vector<std::int64_t> counts = run.trace.initial_loads;
  std::vector<double> work(ranks), seconds(ranks);
  for (auto _ : state) {
    const auto t = static_cast<std::size_t>(controller.decisions()) % run.trace.speeds.size();
    for (std::size_t i = 0; i < ranks; ++i) {
      work[i] = static_cast<double>(counts[i]);
      seconds[i] = work[i] / run.trace.speeds[t][i] * run.noise[t][i];
    }
    const RebalanceDecision d = controller.decide(counts, work, seconds);
    if (d.rebalance) {
      controller.rebalanced(d);
      counts = d.targets;
    }
    benchmark::DoNotOptimize(d.rebalance);
  }
}
BENCHMARK_CAPTURE(BM_ControllerDecision, threshold, "threshold:1.05")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
