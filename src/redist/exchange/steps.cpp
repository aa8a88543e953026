#include "redist/exchange/steps.hpp"

#include <algorithm>

namespace redist::exchange {

Plan lay_out_steps(const Instance& instance, const std::vector<Step>& steps) {
  Plan plan;
  double start = 0.0;
  for (const Step& step : steps) {
    double longest = 0.0;
    for (const StepPiece& s : step) {
      const Message& m = instance.messages[s.message];
      plan.pieces.push_back({m.from, m.to, start, s.bytes});
      const double seconds =
          instance.latency +
          s.bytes / instance.rate(static_cast<std::size_t>(m.from), static_cast<std::size_t>(m.to));
      longest = std::max(longest, seconds);
    }
    start += longest;
  }
  plan.makespan = start;
  return plan;
}

}  // namespace redist::exchange
