// Structured fuzzer of the ring planners (RRV04, docs/formats.md): valid rings drawn from the
// bytes, every planner run on them as `redist ring plan` does, and every plan printed, read back,
// validated by the independent validator (ring/validate.hpp) and compared with the lower bounds
// and, on rings small enough, with the exact optimum. A planner may refuse an instance only with
// InputError.
#include <cmath>
#include <optional>

#include "fuzz/structured.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring/bounds.hpp"
#include "redist/ring/exact.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/svg/ring_gantt.hpp"

using namespace redist;

namespace {

ring::Instance draw_ring(FuzzedDataProvider& in) {
  ring::Instance ring;
  const std::size_t n = fuzz::draw_size(in, 2, 9, 300);
  ring.bidirectional = in.ConsumeBool();
  const std::int64_t max_total = in.PickValueInArray<std::int64_t>(
      {40, 1000, 1'000'000, std::int64_t{1} << 40, (std::int64_t{1} << 62)});
  ring.loads = fuzz::draw_counts(in, n, max_total);
  ring.targets = fuzz::draw_same_total(in, ring.loads);
  ring.cost_next = fuzz::draw_positive(in, n);
  if (ring.bidirectional) {
    ring.cost_prev = in.ConsumeBool() ? ring.cost_next : fuzz::draw_positive(in, n);
  }
  return ring;
}

// n * max |delta_i|: the rounds Algorithm 3 simulates (bidirectional_homogeneous.hpp).
double rounds(const ring::Instance& ring) {
  double most = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    most = std::max(most, std::abs(static_cast<double>(ring.imbalance(i))));
  }
  return most * static_cast<double>(ring.size());
}

// The checks every plan must pass; returns its validated makespan.
double check_plan(const ring::Instance& ring, const ring::Schedule& plan, double bound,
                  const std::string& name) {
  const std::string text = io::ring_schedule_json(plan);
  fuzz::parse_output(text, "ring plan " + name);
  const io::RingScheduleDocument read = fuzz::must_succeed(
      "reading back ring plan " + name, [&] { return io::read_ring_schedule(text); });
  const CheckResult verdict = ring::check(ring, read.schedule, read.stated);
  fuzz::require(verdict.valid, "ring plan " + name + " invalid: " + verdict.reason + "\n" +
                                   io::write_ring_instance(ring).dump());
  fuzz::require(fuzz::at_most(bound, verdict.makespan),
                "ring plan " + name + " beats the lower bound " + fuzz::show(bound));
  fuzz::require(fuzz::at_most(plan.lower_bound.value_or(0.0), verdict.makespan),
                "ring plan " + name + " claims a lower bound above its makespan");
  if (plan.transfers.size() <= 2000) {
    fuzz::require_finite_svg(svg::ring_gantt_svg(ring, plan, "fuzz"), "ring gantt " + name);
  }
  return verdict.makespan;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  fuzz::finding_context() = io::write_ring_instance(draw_ring(in)).dump();
  // Only what the reader accepts is a valid instance.
  ring::Instance ring;
  if (!fuzz::only_input_errors(
          [&] { ring = io::read_ring_instance(io::parse_document(fuzz::finding_context())); })) {
    return 0;
  }
  double bound = 0;
  if (!fuzz::only_input_errors([&] { bound = ring::bounds(ring).lower_bound; })) return 0;
  fuzz::require(std::isfinite(bound) && bound >= 0, "ring lower bound " + fuzz::show(bound));

  std::optional<double> optimum;
  fuzz::only_input_errors([&] {
    const ring::Schedule exact = ring::plan_exact(ring);
    if (exact.optimal) optimum = exact.makespan;  // not when stopped at its node limit
  });
  const bool slow_rounds = rounds(ring) > 1e6;
  for (const auto& algorithm : ring::ring_algorithm_names()) {
    const std::string name = algorithm.name;  // a lambda below captures it
    if (slow_rounds && (name == "bidirectional-homogeneous" || name == "auto")) continue;
    for (ring::Solver solver : {ring::Solver::fast, ring::Solver::lp}) {
      if (solver == ring::Solver::lp && (ring.size() > 40 || name.find("light") != 0)) continue;
      fuzz::only_input_errors([&] {
        const ring::Schedule plan = ring::plan(ring, {name, solver});
        const double makespan = check_plan(ring, plan, bound, name);
        if (!optimum) return;
        fuzz::require(fuzz::at_most(*optimum, makespan),
                      "ring plan " + name + " beats the exact optimum");
        if (plan.optimal) {
          fuzz::require(fuzz::at_most(makespan, *optimum),
                        "ring plan " + name + " claims optimal: " + fuzz::show(makespan) +
                            " > exact " + fuzz::show(*optimum));
        }
      });
    }
  }
  return 0;
}
