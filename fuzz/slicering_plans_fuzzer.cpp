// Structured fuzzer of SliceRing (SLICE, docs/slicering.md): valid clusters drawn from the bytes,
// every algorithm run with and without a forced ring size as `redist slicering plan` does; each
// solution printed, read back and checked by the independent checker (slicering/validate.hpp). On
// small clusters the solutions are compared with the optimum found by enumerating every ring: none
// may beat it, and those claiming `optimal` must meet it.
#include <cmath>
#include <optional>

#include "fuzz/structured.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering/exact.hpp"
#include "redist/slicering/planner.hpp"
#include "redist/slicering/validate.hpp"
#include "redist/testing/slicering_brute_force.hpp"

using namespace redist;

namespace {

slicering::Cluster draw_cluster(FuzzedDataProvider& in) {
  slicering::Cluster cluster;
  const std::size_t p = fuzz::draw_size(in, 1, 7, 60);
  cluster.w = fuzz::draw_positive(in, p);
  cluster.c = fuzz::draw_positive(in, p * p);
  cluster.W = fuzz::draw_positive(in, 1)[0];
  cluster.H = fuzz::draw_positive(in, 1)[0];
  return cluster;
}

double checked_t_step(const slicering::Cluster& cluster, const slicering::Solution& s,
                      const std::string& name) {
  const std::string text = io::write_slicering_solution(s).dump();
  fuzz::parse_output(text, "slicering " + name);
  const io::SolutionDocument doc = fuzz::must_succeed("reading back slicering " + name, [&] {
    return io::read_slicering_solution(io::parse_document(text));
  });
  const CheckResult verdict = slicering::check(cluster, doc.ring, doc.alpha, doc.claims);
  fuzz::require(verdict.valid, "slicering " + name + " invalid: " + verdict.reason);
  fuzz::require(std::isfinite(verdict.makespan) && verdict.makespan > 0,
                "slicering " + name + " t_step " + fuzz::show(verdict.makespan));
  fuzz::require(fuzz::at_most(s.lower_bound.value_or(0.0), verdict.makespan),
                "slicering " + name + " claims a lower bound above its t_step");
  return verdict.makespan;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::finding_context() = io::write_cluster(draw_cluster(in)).dump();
  // Only what the reader accepts is a valid instance.
  slicering::Cluster cluster;
  if (!fuzz::only_input_errors(
          [&] { cluster = io::read_cluster(io::parse_document(fuzz::finding_context())); })) {
    return 0;
  }
  const std::size_t p = cluster.size();
  std::optional<std::size_t> q;
  if (in.ConsumeBool()) q = in.ConsumeIntegralInRange<std::size_t>(1, p);
  std::optional<double> optimum;
  if (p <= 7) {
    fuzz::only_input_errors([&] { optimum = slicering::testing::brute_force_t_step(cluster, q); });
  }
  for (const char* name : {"homogeneous", "greedy", "tsp", "exact"}) {
    if (std::string(name) == "exact" && p > 10) continue;
    fuzz::only_input_errors([&] {
      const slicering::Solution s = slicering::plan(cluster, {name, q});
      if (q) fuzz::require(s.ring.size() == *q, std::string("slicering ") + name + " ignores q");
      const double t_step = checked_t_step(cluster, s, name);
      if (!optimum) return;
      fuzz::require(fuzz::at_most(*optimum, t_step),
                    std::string("slicering ") + name + " beats the enumerated optimum");
      if (s.optimal) {
        fuzz::require(fuzz::at_most(t_step, *optimum),
                      std::string("slicering ") + name + " claims optimal: " + fuzz::show(t_step) +
                          " > optimum " + fuzz::show(*optimum));
      }
    });
  }
  return 0;
}
