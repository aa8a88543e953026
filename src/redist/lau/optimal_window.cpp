#include "redist/lau/optimal_window.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/lau/closed_forms.hpp"
#include "redist/lau/linear.hpp"
#include "redist/lau/optimal.hpp"
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

namespace {

// Whether the shift d of the window, and every later one, can be passed over: the best plan's time
// is the optimum (no shift has a shorter one), the traffic at d is at least the best plan's and
// no lower than at d - 1. Traffic is convex in d, so it only grows from d on, and a later shift
// with the same time and traffic loses the tie to the smaller h.
bool rest_cannot_win(const Plan& best, const Time& best_time, const Time& optimum,
                     std::int64_t traffic_at_d, std::int64_t traffic_before) {
  return best_time == optimum && traffic_at_d >= best.traffic && traffic_at_d >= traffic_before;
}

}  // namespace

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
  const Time optimum = time_in(plan_optimal(in, mode), mode);
  const std::vector<std::int64_t> traffic_flows = best.flows;
  std::int64_t previous_traffic = 0;
  for (std::int64_t d = w.d_min;; ++d) {
    const std::vector<std::int64_t> flows = shifted(traffic_flows, d);
    const std::int64_t tr = traffic(flows);
    const Time bt = time_in(best, mode);
    if (d > w.d_min && rest_cannot_win(best, bt, optimum, tr, previous_traffic)) {
      best.notes.push_back(
          fmt::format("optimal-window stopped at the optimum after {} of the {} "
                      "shifts of its window: no later shift can win a tie",
                      d - w.d_min, w.size()));
      break;
    }
    previous_traffic = tr;
    const Time t = mode == Mode::single ? t_single_closed(in, flows) : t_multi_closed(in, flows);
    const std::int64_t h = base + d;
    if (d == w.d_min || time_less(t, bt) ||
        (t == bt && (tr < best.traffic || (tr == best.traffic && h < best.h)))) {
      best.flows = flows;
      best.h = h;
      complete_plan(in, best);
    }
    if (d == w.d_max) break;
  }
  return best;
}

}  // namespace redist::lau
