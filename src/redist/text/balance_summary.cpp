#include "redist/text/balance_summary.hpp"

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
  out.field("iteration", fmt::format("{} now, {} balanced", number(a.iteration_time),
                                     number(a.balanced_iteration_time)));
  out.field("saving", fmt::format("{} over the remaining iterations", number(a.predicted_saving)));
  out.field("cost", fmt::format("{} (the redistribution's makespan)", number(a.plan_makespan)));
  out.field("targets", numbers(a.targets));
  out.blank();
  const ring::Instance ring = balance::redistribution_instance(in.ring, in.loads, a.targets);
  return out.str() +
         ring_summary(ring, a.schedule, verdict, "the redistribution to the targets", "");
}

}  // namespace redist::text
