// Structured fuzzer of the star family (STAR, docs/star.md): valid star instances drawn from the
// bytes and planned by every algorithm as `redist star plan` does; each plan printed, read back and
// validated by the independent validator (star/validate.hpp), compared with the computation lower
// bound and, on instances small enough, with the exact optimum. Also Theorem 1's order
// (`redist star order`, checked by the same validator with computation left out) and divisible
// load (`redist dlt plan`: both solvers agree and their deltas meet every constraint of LP 7).
#include <cmath>
#include <optional>

#include "fuzz/structured.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/dlt/validate.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/io/star_json.hpp"
#include "redist/star/exact.hpp"
#include "redist/star/order.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/validate.hpp"
#include "redist/svg/star_gantt.hpp"

using namespace redist;

namespace {

star::Instance draw_star(FuzzedDataProvider& in) {
  star::Instance star;
  const std::size_t m = fuzz::draw_size(in, 1, 6, 200);
  const std::int64_t max_total =
      in.PickValueInArray<std::int64_t>({12, 40, 2000, 100'000, 1'000'000'000'000});
  star.loads = fuzz::draw_counts(in, m, max_total);
  star.c = fuzz::draw_positive(in, m);
  star.w = fuzz::draw_positive(in, m);
  return star;
}

std::int64_t total_tasks(const star::Instance& star) {
  std::int64_t total = 0;
  for (std::int64_t x : star.loads) total += x;
  return total;
}

double check_plan(const star::Instance& star, const star::Schedule& plan, double bound,
                  const std::string& name) {
  const std::string text = io::star_schedule_json(plan);
  fuzz::parse_output(text, "star plan " + name);
  const io::StarScheduleDocument read = fuzz::must_succeed(
      "reading back star plan " + name, [&] { return io::read_star_schedule(text); });
  const CheckResult verdict = star::check(star, read.schedule, read.stated);
  fuzz::require(verdict.valid, "star plan " + name + " invalid: " + verdict.reason);
  fuzz::require(fuzz::at_most(bound, verdict.makespan),
                "star plan " + name + " beats the computation bound " + fuzz::show(bound));
  fuzz::require(fuzz::at_most(plan.lower_bound.value_or(0.0), verdict.makespan),
                "star plan " + name + " claims a lower bound above its makespan");
  if (plan.transfers.size() <= 2000) {
    fuzz::require_finite_svg(svg::star_gantt_svg(star, plan, "fuzz"), "star gantt " + name);
  }
  return verdict.makespan;
}

void fuzz_planners(const star::Instance& drawn) {
  fuzz::finding_context() =
      nlohmann::json{{"star", {{"c", drawn.c}, {"w", drawn.w}, {"loads", drawn.loads}}}}.dump();
  // Only what the reader accepts is a valid instance.
  star::Instance star;
  if (!fuzz::only_input_errors(
          [&] { star = io::read_star_instance(io::parse_document(fuzz::finding_context())); })) {
    return;
  }
  double bound = 0;
  if (!fuzz::only_input_errors([&] { bound = star::computation_lower_bound(star); })) return;
  fuzz::require(std::isfinite(bound) && bound >= 0, "star bound " + fuzz::show(bound));
  std::optional<double> optimum;
  // The exact search is bounded by node count (seconds in an optimised build): kept to instances
  // it solves in milliseconds here.
  if (star.workers() <= 4 && total_tasks(star) <= 12) {
    fuzz::only_input_errors([&] {
      const star::Schedule exact = star::plan_exact(star);
      const double makespan = check_plan(star, exact, bound, "exact");
      if (exact.optimal) optimum = makespan;  // not when stopped at its node cap
    });
  }
  for (const char* name : {"bba", "mbbsa", "rbsa", "best"}) {
    fuzz::only_input_errors([&] {
      const star::Schedule plan = star::plan(star, {name});
      const double makespan = check_plan(star, plan, bound, name);
      if (!optimum) return;
      fuzz::require(fuzz::at_most(*optimum, makespan),
                    std::string("star plan ") + name + " beats the exact optimum");
      if (plan.optimal) {
        fuzz::require(fuzz::at_most(makespan, *optimum),
                      std::string("star plan ") + name + " claims optimal: " +
                          fuzz::show(makespan) + " > exact " + fuzz::show(*optimum));
      }
    });
  }
}

// Theorem 1: the order schedule is valid for the validator on the instance where each worker holds
// its surplus (computation times do not matter: makespan and finish are left to it).
void fuzz_order(FuzzedDataProvider& in) {
  star::OrderInstance order;
  const std::size_t m = fuzz::draw_size(in, 1, 6, 100);
  const std::vector<std::int64_t> before =
      fuzz::draw_counts(in, m, in.PickValueInArray<std::int64_t>({10, 1000, 50'000}));
  const std::vector<std::int64_t> after = fuzz::draw_same_total(in, before);
  for (std::size_t i = 0; i < m; ++i) order.delta.push_back(before[i] - after[i]);
  order.c = fuzz::draw_positive(in, m);
  fuzz::finding_context() =
      nlohmann::json{{"star", {{"c", order.c}, {"delta", order.delta}}}}.dump();
  fuzz::only_input_errors([&] {
    order = io::read_order_instance(io::parse_document(fuzz::finding_context()));
    star::Schedule plan = star::order(order);
    fuzz::parse_output(io::star_schedule_json(plan), "star order");
    star::Instance star;
    star.c = order.c;
    star.w.assign(m, 1.0);
    for (std::int64_t d : order.delta) star.loads.push_back(std::max<std::int64_t>(d, 0));
    double last_arrival = 0;
    for (const star::Transfer& t : plan.transfers) {
      last_arrival =
          std::max(last_arrival, t.forward_start + order.c[static_cast<std::size_t>(t.to)]);
    }
    fuzz::require(
        fuzz::at_most(last_arrival, plan.makespan) && fuzz::at_most(plan.makespan, last_arrival),
        "star order makespan is not the last arrival");
    const CheckResult verdict = star::check(star, plan, {false, false});
    fuzz::require(verdict.valid, "star order schedule invalid: " + verdict.reason);
  });
}

void check_dlt(const dlt::Instance& dlt, const dlt::Schedule& s, const std::string& name) {
  const double T = s.makespan;
  fuzz::require(std::isfinite(T) && T >= 0, name + ": makespan " + fuzz::show(T));
  double sum = 0, scale = 0;
  for (std::size_t i = 0; i < dlt.alpha.size(); ++i) {
    const double d = s.delta[i];
    fuzz::require(std::isfinite(d), name + ": delta not finite");
    fuzz::require(fuzz::at_most(std::abs(d), T * dlt.b[i], 1e-7), name + ": |delta| > T b (7a)");
    // 7b as alpha_i <= d + T s_i: alpha_i - T s_i cancels, so the tolerance is relative to the
    // terms, not to their difference.
    fuzz::require(dlt.alpha[i] <= d + T * dlt.s[i] + 1e-7 * std::max(dlt.alpha[i], T * dlt.s[i]),
                  name + ": 7b violated");
    sum += d;
    scale = std::max(scale, std::abs(d) + dlt.alpha[i]);
  }
  fuzz::require(std::abs(sum) <= 1e-7 * scale, name + ": deltas do not sum to 0 (7c)");
}

void fuzz_dlt(FuzzedDataProvider& in) {
  dlt::Instance dlt;
  const std::size_t m = fuzz::draw_size(in, 1, 8, 300);
  dlt.b = fuzz::draw_positive(in, m);
  dlt.s = fuzz::draw_positive(in, m);
  dlt.alpha = fuzz::draw_positive(in, m);
  for (double& a : dlt.alpha) a = in.ConsumeBool() ? a : 0.0;
  fuzz::finding_context() =
      nlohmann::json{{"dlt", {{"b", dlt.b}, {"s", dlt.s}, {"alpha", dlt.alpha}}}}.dump();
  if (!fuzz::only_input_errors(
          [&] { dlt = io::read_dlt_instance(io::parse_document(fuzz::finding_context())); })) {
    return;
  }
  dlt::Schedule fast;
  if (!fuzz::only_input_errors([&] { fast = dlt::solve_fast(dlt); })) return;
  check_dlt(dlt, fast, "dlt fast");
  if (m <= 64) {
    // What `dlt plan` writes: refused as a whole when rounding would spoil it, else valid.
    fuzz::only_input_errors([&] {
      const dlt::Schedule plan = dlt::plan(dlt);
      const std::string text = io::dlt_plan_json(plan);
      fuzz::parse_output(text, "dlt output");
      const io::DltScheduleDocument read = io::read_dlt_schedule(text);
      const CheckResult verdict = dlt::check(dlt, read.schedule, read.stated);
      fuzz::require(verdict.valid, "dlt plan invalid: " + verdict.reason);
    });
  }
  if (m > 40) return;
  fuzz::only_input_errors([&] {
    const dlt::Schedule lp = dlt::solve_lp(dlt);
    check_dlt(dlt, lp, "dlt lp");
    fuzz::require(fuzz::at_most(lp.makespan, fast.makespan, 1e-6) &&
                      fuzz::at_most(fast.makespan, lp.makespan, 1e-6),
                  "dlt solvers disagree: fast " + fuzz::show(fast.makespan) + ", lp " +
                      fuzz::show(lp.makespan));
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      fuzz_order(in);
      break;
    case 1:
      fuzz_dlt(in);
      break;
    default:
      fuzz_planners(draw_star(in));
  }
  return 0;
}
