#include "redist/star/rbsa.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <queue>
#include <tuple>
#include <vector>

#include "redist/common/tolerance.hpp"
#include "redist/star/deadline_phases.hpp"

namespace redist::star {

namespace {

// Max-heap entry: (key, -index, index, version).
using Entry = std::tuple<double, std::int64_t, std::size_t, std::uint32_t>;
using MaxHeap = std::priority_queue<Entry>;

}  // namespace

std::optional<std::vector<std::size_t>> rbsa_receivers(const Instance& in, double M,
                                                       const SenderPhase& p) {
  const std::size_t need = static_cast<std::size_t>(p.total);
  const std::size_t m = in.workers();
  // x_r = begin_r - w_r: when r's next extra task would start computing. A receiver is
  // "capped" when x_r >= T (its reception would start at T - c_r), else it starts at x_r - c_r.
  enum class State : std::uint8_t { out, capped, uncapped };
  std::vector<double> x(m), own_end(m);
  std::vector<State> state(m, State::out);
  std::vector<std::uint32_t> version(m, 0);
  MaxHeap capped, uncapped, by_x;  // keys: -c_r; x_r - c_r; x_r
  double T = M;
  auto place = [&](std::size_t r) {
    ++version[r];
    if (x[r] < own_end[r]) {
      state[r] = State::out;  // no idle gap left, for good (x only decreases)
    } else if (x[r] >= T) {
      state[r] = State::capped;
      capped.emplace(-in.c[r], -static_cast<std::int64_t>(r), r, version[r]);
    } else {
      state[r] = State::uncapped;
      uncapped.emplace(x[r] - in.c[r], -static_cast<std::int64_t>(r), r, version[r]);
      by_x.emplace(x[r], -static_cast<std::int64_t>(r), r, version[r]);
    }
  };
  for (std::size_t r : p.receivers) {
    own_end[r] = static_cast<double>(in.loads[r]) * in.w[r];
    x[r] = M - in.w[r];
    place(r);
  }
  auto live = [&](const Entry& e, State st) {
    const std::size_t r = std::get<2>(e);
    return std::get<3>(e) == version[r] && state[r] == st;
  };
  std::vector<std::size_t> receivers(need);
  for (std::size_t k = need; k-- > 0;) {
    // T only decreases: uncapped receivers with x_r >= T become capped.
    while (!by_x.empty() && (!live(by_x.top(), State::uncapped) || std::get<0>(by_x.top()) >= T)) {
      const Entry e = by_x.top();
      by_x.pop();
      if (live(e, State::uncapped)) place(std::get<2>(e));
    }
    while (!capped.empty() && !live(capped.top(), State::capped)) capped.pop();
    while (!uncapped.empty() && !live(uncapped.top(), State::uncapped)) uncapped.pop();
    // The latest reception start (ties: lower index), as min(x_r, T) - c_r.
    std::size_t chosen = m;
    double start = 0;
    if (!capped.empty()) {
      chosen = std::get<2>(capped.top());
      start = T - in.c[chosen];
    }
    if (!uncapped.empty()) {
      const std::size_t r = std::get<2>(uncapped.top());
      const double v = x[r] - in.c[r];
      if (chosen == m || v > start || (v == start && r < chosen)) chosen = r, start = v;
    }
    if (chosen == m || start < p.arrival[k]) return std::nullopt;
    receivers[k] = chosen;
    T = start;
    x[chosen] -= in.w[chosen];
    place(chosen);
  }
  return receivers;
}

std::optional<Schedule> rbsa_decide(const Instance& in, double M) {
  const SenderPhase p = sender_phase(in, M, /*strict=*/false);
  if (!p.ok) return std::nullopt;
  auto receivers = rbsa_receivers(in, M, p);
  if (!receivers) return std::nullopt;
  return build_forward_schedule(in, p, *receivers, "rbsa");
}

Schedule plan_rbsa(const Instance& in) {
  Schedule best = no_transfer_schedule(in, "rbsa");
  if (best.makespan == 0) return best;
  double lo = 0, hi = best.makespan;
  for (int iteration = 0; iteration < 200 && hi - lo > kTimeTolerance * hi; ++iteration) {
    const double mid = lo + (hi - lo) / 2;
    if (auto s = rbsa_decide(in, mid)) {
      if (s->makespan < best.makespan) best = std::move(*s);
      hi = std::min(mid, best.makespan);
    } else {
      lo = mid;
    }
  }
  return best;
}

}  // namespace redist::star
