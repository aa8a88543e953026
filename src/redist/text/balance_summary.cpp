#include "redist/text/balance_summary.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/balance/model.hpp"
#include "redist/text/ring_summary.hpp"
#include "redist/text/summary.hpp"

namespace redist::text {

std::string advise_summary(const balance::AdviseInput& in, const balance::Advice& a,
                           const CheckResult& verdict, std::string_view heading,
                           std::string_view source) {
  Summary out;
  out.line(fmt::format("{}: {} ring of {} processors, {} iteration{} left{}", heading,
                       in.ring.bidirectional ? "bidirectional" : "unidirectional", in.ring.size(),
                       in.remaining_iterations, in.remaining_iterations == 1 ? "" : "s",
                       source.empty() ? "" : fmt::format(" ({})", source)));
  out.line("  loads     " + numbers(in.loads));
  out.line("  speeds    " + numbers(in.speeds));
  out.blank();
  out.field("rebalance", a.rebalance ? "yes (the predicted saving exceeds the redistribution's "
                                       "makespan)"
                                     : "no (the predicted saving does not exceed the "
                                       "redistribution's makespan)");
  out.field("iteration", fmt::format("{} now, {} balanced", quantity(a.iteration_time, kTimeUnits),
                                     number(a.balanced_iteration_time)));
  out.field("saving", fmt::format("{} over the remaining iterations",
                                  quantity(a.predicted_saving, kTimeUnits)));
  out.field("cost", fmt::format("{} (the redistribution's makespan)",
                                quantity(a.plan_makespan, kTimeUnits)));
  out.field("targets", numbers(a.targets));
  out.blank();
  const ring::Instance ring = balance::redistribution_instance(in.ring, in.loads, a.targets);
  return out.str() +
         ring_summary(ring, a.schedule, verdict, "the redistribution to the targets", "");
}

std::string simulation_summary(const balance::SimulationResult& r, std::string_view heading) {
  Summary out;
  out.line(fmt::format("{}: policy {}, {} iteration{}", heading, r.policy, r.iterations,
                       r.iterations == 1 ? "" : "s"));
  out.blank();
  out.field("total time", fmt::format("{} (compute {} + redistributions {})", number(r.total_time),
                                      number(r.compute_time), number(r.redistribution_time)));
  out.field("lower bound", number(r.lower_bound));
  out.field("rebalances", fmt::format("{}", r.rebalances.size()));
  out.blank();
  out.line("rebalances (after iteration k: the redistribution's makespan, the new counts):");
  const std::size_t shown = std::min(r.rebalances.size(), kMaxRows);
  for (std::size_t k = 0; k < shown; ++k) {
    const balance::Rebalance& b = r.rebalances[k];
    out.line(fmt::format("  after {:>4}  makespan {}  counts {}", b.after_iteration,
                         number(b.makespan), numbers(b.targets)));
  }
  if (r.rebalances.empty()) out.line("  none: the policy never rebalanced");
  out.rows_left_out(shown, r.rebalances.size());
  return out.str();
}

}  // namespace redist::text
