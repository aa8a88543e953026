#include "redist/star/model.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

namespace redist::star {

namespace {

// Every time a planner or the validator forms is at most
// 2 (sum_i L_i c_i + L c_max) + max_i L_i w_i + c_max + w_max (all tasks through the master,
// then the slowest computation of the no-transfer schedule, which no planner exceeds, plus one
// more task): refuse instances where that bound overflows, so every number written is finite.
void check_time_horizon(const Instance& in, double total_tasks) {
  const std::size_t m = in.workers();
  const auto c_max = std::max_element(in.c.begin(), in.c.end());
  const auto w_max = std::max_element(in.w.begin(), in.w.end());
  double sends = 0, own = 0;
  for (std::size_t i = 0; i < m; ++i) {
    sends += static_cast<double>(in.loads[i]) * in.c[i];
    own = std::max(own, static_cast<double>(in.loads[i]) * in.w[i]);
    if (!std::isfinite(sends)) {
      throw InputError(
          "loads times c, summed over the workers, overflows a double; scale c and w down",
          fmt::format("c[{}]", i));
    }
  }
  const double horizon = 2 * (sends + total_tasks * *c_max) + own + *c_max + *w_max;
  if (!std::isfinite(horizon)) {
    throw InputError(fmt::format("moving every task through the master and computing it would "
                                 "take longer than a double can hold; scale c and w down"),
                     fmt::format("c[{}]", c_max - in.c.begin()));
  }
  // A duration below kTimeResolution of the horizon would be rounded away when added to a time near
  // it (two forwards at the same instant, a computation of no length): refused, not misreported.
  const double resolution = kTimeResolution * horizon;
  for (std::size_t i = 0; i < m; ++i) {
    for (const auto& [value, name] : {std::pair{in.c[i], "c"}, std::pair{in.w[i], "w"}}) {
      if (value < resolution) {
        throw InputError(fmt::format("{} is below {} of the longest time a schedule may reach "
                                     "({}): times would round it away; use values of closer "
                                     "magnitudes",
                                     value, kTimeResolution, horizon),
                         fmt::format("{}[{}]", name, i));
      }
    }
  }
}

}  // namespace

void validate_instance(const Instance& in) {
  const std::size_t m = in.loads.size();
  if (m == 0) throw InputError("a star needs at least 1 worker", "loads");
  if (in.c.size() != m) {
    throw InputError(fmt::format("has {} entries, loads has {}", in.c.size(), m), "c");
  }
  if (in.w.size() != m) {
    throw InputError(fmt::format("has {} entries, loads has {}", in.w.size(), m), "w");
  }
  for (std::size_t i = 0; i < m; ++i) {
    if (!std::isfinite(in.c[i]) || in.c[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("c[{}]", i));
    }
    if (!std::isfinite(in.w[i]) || in.w[i] <= 0) {
      throw InputError("must be a finite number > 0", fmt::format("w[{}]", i));
    }
    if (in.loads[i] < 0) throw InputError("load must be >= 0", fmt::format("loads[{}]", i));
    if (!std::isfinite(static_cast<double>(in.loads[i]) * in.w[i])) {
      throw InputError("loads[i] * w[i] is not a finite time", fmt::format("loads[{}]", i));
    }
  }
  const auto total = checked_sum(in.loads);
  if (!total || *total > (std::int64_t{1} << 53)) {
    throw InputError("total load exceeds 2^53 tasks (times would lose exactness)", "loads");
  }
  check_time_horizon(in, static_cast<double>(*total));
}

bool homogeneous_links(const Instance& in) {
  return std::all_of(in.c.begin(), in.c.end(), [&](double x) { return x == in.c.front(); });
}

bool homogeneous_computation(const Instance& in) {
  return std::all_of(in.w.begin(), in.w.end(), [&](double x) { return x == in.w.front(); });
}

void finish_times(const Instance& in, Schedule& s) {
  const std::size_t m = in.workers();
  std::vector<std::int64_t> kept(in.loads.begin(), in.loads.end());
  std::vector<std::vector<double>> arrivals(m);
  for (const Transfer& t : s.transfers) {
    --kept[static_cast<std::size_t>(t.from)];
    arrivals[static_cast<std::size_t>(t.to)].push_back(t.forward_start +
                                                       in.c[static_cast<std::size_t>(t.to)]);
  }
  s.finish.assign(m, 0.0);
  s.makespan = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    double end = static_cast<double>(kept[i]) * in.w[i];
    std::sort(arrivals[i].begin(), arrivals[i].end());
    for (double a : arrivals[i]) end = std::max(end, a) + in.w[i];
    s.finish[i] = end;
    s.makespan = std::max(s.makespan, end);
  }
}

Schedule no_transfer_schedule(const Instance& in, const std::string& algorithm) {
  Schedule s;
  s.algorithm = algorithm;
  finish_times(in, s);
  return s;
}

Transfer relay_task(const std::vector<double>& c, std::size_t sender, std::size_t receiver,
                    double& master_in, double& master_out) {
  Transfer t;
  t.from = static_cast<std::int64_t>(sender);
  t.to = static_cast<std::int64_t>(receiver);
  t.send_start = master_in;
  master_in += c[sender];
  t.forward_start = std::max(master_in, master_out);
  master_out = t.forward_start + c[receiver];
  return t;
}

}  // namespace redist::star
