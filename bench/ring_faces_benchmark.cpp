// The faces of one ring plan on large rings: `redist ring plan` as JSON, as text (`--format
// text`, which adds the validator's verdict and renders the typed schedule) and `redist ring
// bound` (JSON and text), through the JSON entry points the command line and Python share. The
// text and the bound should stay within 2x of the JSON plan: none of them may recompute a claim,
// and Lemma 12 (O(n^2)) is skipped beyond kLemma12MaxProcessors with a note. BM_Lemma12 times
// that O(n^2) term alone, at its limit and at 10^4 processors (where it would dominate).
//
// Instances: random_ring (loads uniform in [1, 1000], targets a random composition of the same
// total, costs uniform in [0.1, 10], heterogeneous bidirectional), fixed seed.
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "redist/io/json.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/testing/random_ring.hpp"

namespace {

redist::ring::Instance ring_of(std::size_t n) {
  std::mt19937_64 rng(20260101 + n);
  redist::testkit::RandomRingOptions o;
  o.n_min = o.n_max = n;
  o.bidirectional = true;
  return redist::testkit::random_ring(rng, o);
}

std::string instance_text(std::size_t n) {
  return redist::io::output_text(redist::io::write_ring_instance(ring_of(n)));
}

template <class Face>
void run_face(benchmark::State& state, Face&& face) {
  const std::string instance = instance_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    std::string output = face(instance);
    benchmark::DoNotOptimize(output);
  }
  state.counters["processors"] = static_cast<double>(state.range(0));
}

void BM_PlanJson(benchmark::State& state) {
  run_face(state, [](const std::string& in) { return redist::ring::plan_json(in); });
}
void BM_PlanText(benchmark::State& state) {
  run_face(state, [](const std::string& in) {
    return redist::ring::plan_json(in, R"({"format": "text"})");
  });
}
void BM_BoundJson(benchmark::State& state) {
  run_face(state, [](const std::string& in) { return redist::ring::bound_json(in); });
}

void BM_Lemma12(benchmark::State& state) {
  const redist::ring::Instance in = ring_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto value = redist::ring::lemma12_bound(in, in.size());
    benchmark::DoNotOptimize(value);
  }
}

}  // namespace

BENCHMARK(BM_PlanJson)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanText)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BoundJson)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lemma12)
    ->Arg(redist::ring::kLemma12MaxProcessors)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
