#include "redist/balance/advise.hpp"

#include <cmath>

#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"
#include "redist/ring/planner.hpp"

namespace redist::balance {

Advice advise(const AdviseInput& input) {
  Trace trace;  // one iteration: validates the ring, the loads and the speeds together
  trace.ring = input.ring;
  trace.speeds = {input.speeds};
  trace.initial_loads = input.loads;
  try {
    validate_trace(trace);
  } catch (const InputError& e) {
    if (e.path().rfind("speeds[0]", 0) == 0)  // a single row: "speeds[i]"
      throw InputError(e.message(), "speeds" + e.path().substr(9));
    throw;
  }
  if (input.remaining_iterations < 0)
    throw InputError("must be an integer >= 0", "remaining_iterations");
  Advice a;
  a.targets = balanced_targets(trace.items(), input.speeds);
  a.iteration_time = iteration_time(input.loads, input.speeds);
  a.balanced_iteration_time = iteration_time(a.targets, input.speeds);
  a.schedule = ring::plan(redistribution_instance(input.ring, input.loads, a.targets));
  a.plan_makespan = a.schedule.makespan;
  a.predicted_saving = (a.iteration_time - a.balanced_iteration_time) *
                       static_cast<double>(input.remaining_iterations);
  if (!std::isfinite(a.predicted_saving))
    throw InputError("the predicted saving over this many iterations exceeds the double range",
                     "remaining_iterations");
  a.rebalance = a.predicted_saving > a.plan_makespan;
  return a;
}

}  // namespace redist::balance
