#include "redist/lau/optimal_window.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/lau/closed_forms.hpp"
#include "redist/lau/linear.hpp"
#include "redist/lau/traffic.hpp"

namespace redist::lau {

DeficitWindow deficit_window(const Instance& in, const std::vector<std::int64_t>& flows) {
  DeficitWindow w;
  Int128 lo = 0, hi = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Int128 deficit = sent_by(flows, i) - in.loads[i];
    if (deficit <= 0) continue;
    // A red node of a valid schedule sends on one link only: right (flows[i] > 0) or left.
    const Int128 d = flows[i] > 0 ? deficit : -deficit;
    if (!w.defined) {
      lo = hi = d;
      w.defined = true;
    } else {
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
  }
  // |deficit| <= |flow| <= the total load, which fits int64.
  w.d_min = static_cast<std::int64_t>(lo);
  w.d_max = static_cast<std::int64_t>(hi);
  return w;
}

Plan plan_optimal_window(const Instance& in, Mode mode) {
  const std::vector<std::int64_t> linear = linear_flows(in);
  const std::int64_t base = traffic_shift(linear);
  Plan best = plan_with_shift(in, linear, base, "optimal-window");
  const DeficitWindow w = deficit_window(in, best.flows);
  if (!w.defined) return best;
  const Int128 work = Int128{w.d_max - w.d_min + 1} * static_cast<Int128>(in.size());
  if (work > Int128{kOptimalWindowMaxWork}) {
    throw OptionError(fmt::format("the deficit window [{}, {}] is too large for optimal-window "
                                  "(n x window > 2e8, about 10-20 s); use algorithm optimal",
                                  w.d_min, w.d_max),
                      "algorithm");
  }
  const std::vector<std::int64_t> traffic_flows = best.flows;
  bool first = true;
  for (std::int64_t d = w.d_min;; ++d) {
    const std::vector<std::int64_t> flows = shifted(traffic_flows, d);
    const Time t = mode == Mode::single ? t_single_closed(in, flows) : t_multi_closed(in, flows);
    const std::int64_t tr = traffic(flows);
    const Time bt = time_in(best, mode);
    const std::int64_t h = base + d;
    if (first || time_less(t, bt) ||
        (t == bt && (tr < best.traffic || (tr == best.traffic && h < best.h)))) {
      best.flows = flows;
      best.h = h;
      complete_plan(in, best);
      first = false;
    }
    if (d == w.d_max) break;
  }
  return best;
}

}  // namespace redist::lau
