#include "redist/lau/evaluate.hpp"

#include "redist/common/error.hpp"
#include "redist/lau/closed_forms.hpp"
#include "redist/lau/simulate.hpp"

namespace redist::lau {

Evaluation evaluate(const Instance& in, const std::vector<std::int64_t>& flows,
                    std::int64_t budget) {
  Evaluation e;
  e.t_single = simulate_single(in, flows);
  const auto n = static_cast<std::int64_t>(in.size());
  try {
    e.t_multi = simulate_multi(in, flows, budget / n + 1);
  } catch (const TooManySteps&) {
    e.t_multi = t_multi_closed(in, flows);
    e.multi_by_simulation = false;
  }
  e.traffic = traffic(flows);
  // flows = linear - h with the same h at every link (the flows balance every node).
  const auto h = checked_sub(linear_flows(in)[0], flows[0]);
  if (!h) throw InputError("h = linear[0] - flows[0] overflows 64 bits", "flows");
  e.h = *h;
  return e;
}

}  // namespace redist::lau
