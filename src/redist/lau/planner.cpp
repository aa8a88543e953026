#include "redist/lau/planner.hpp"

#include "redist/common/error.hpp"
#include "redist/lau/linear.hpp"
#include "redist/lau/optimal.hpp"
#include "redist/lau/optimal_window.hpp"
#include "redist/lau/traffic.hpp"

namespace redist::lau {

Plan plan_lau(const Instance& in, const std::string& algorithm, Mode mode) {
  if (algorithm == "linear") return plan_linear(in);
  if (algorithm == "traffic") return plan_traffic(in);
  if (algorithm == "optimal-window") return plan_optimal_window(in, mode);
  if (algorithm == "optimal") return plan_optimal(in, mode);
  throw OptionError(
      "unknown algorithm '" + algorithm + "' (expected linear, traffic, optimal-window or optimal)",
      "algorithm");
}

Mode parse_mode(const std::string& name) {
  if (name == "single") return Mode::single;
  if (name == "multi") return Mode::multi;
  throw OptionError("unknown mode '" + name + "' (expected single or multi)", "mode");
}

}  // namespace redist::lau
