#include "redist/ring/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"

namespace redist::ring {

const char* to_string(Direction d) {
  switch (d) {
    case Direction::next:
      return "next";
    case Direction::prev:
      return "prev";
    default:
      return "unknown";
  }
}

bool Instance::homogeneous() const {
  for (double c : cost_next) {
    if (c != cost_next[0]) return false;
  }
  for (double c : cost_prev) {
    if (c != cost_next[0]) return false;
  }
  return true;
}

bool Instance::meets_paper_assumptions() const {
  for (std::size_t i = 0; i < size(); ++i) {
    if (loads[i] < 1 || targets[i] < 1) return false;
  }
  return true;
}

void validate_instance(const Instance& in) {
  const std::size_t n = in.loads.size();
  if (n < 2)
    throw InputError(fmt::format("a ring needs at least 2 processors, got {}", n), "loads");
  if (in.targets.size() != n) {
    throw InputError(fmt::format("targets has {} entries, loads has {}", in.targets.size(), n),
                     "targets");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (in.loads[i] < 0) throw InputError("load must be >= 0", fmt::format("loads[{}]", i));
    if (in.targets[i] < 0) throw InputError("target must be >= 0", fmt::format("targets[{}]", i));
  }
  const auto load_sum = checked_sum(in.loads);
  if (!load_sum) throw InputError("sum of loads overflows 64 bits", "loads");
  const auto target_sum = checked_sum(in.targets);
  if (!target_sum) throw InputError("sum of targets overflows 64 bits", "targets");
  if (*load_sum != *target_sum) {
    throw InputError(
        fmt::format("sum of targets ({}) differs from sum of loads ({})", *target_sum, *load_sum),
        "targets");
  }
  auto check_costs = [&](const std::vector<double>& costs, const char* name) {
    if (costs.size() != n) {
      throw InputError(fmt::format("{} has {} entries, expected {}", name, costs.size(), n), name);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(costs[i]) || costs[i] <= 0) {
        throw InputError("cost must be finite and > 0", fmt::format("{}[{}]", name, i));
      }
    }
  };
  check_costs(in.cost_next, "cost_next");
  if (in.bidirectional) {
    check_costs(in.cost_prev, "cost_prev");
  } else if (!in.cost_prev.empty()) {
    throw InputError("cost_prev given for a unidirectional ring", "cost_prev");
  }
}

namespace {

// The path of the cost equal to `value` (the first one found).
std::string cost_path(const Instance& in, double value) {
  for (std::size_t i = 0; i < in.cost_next.size(); ++i) {
    if (in.cost_next[i] == value) return fmt::format("cost_next[{}]", i);
  }
  for (std::size_t i = 0; i < in.cost_prev.size(); ++i) {
    if (in.cost_prev[i] == value) return fmt::format("cost_prev[{}]", i);
  }
  return "";
}

}  // namespace

void require_finite_times(const Instance& in) {
  long double loads = 0, costs = 0;
  for (std::int64_t l : in.loads) loads += static_cast<long double>(l);
  double largest = 0, smallest = std::numeric_limits<double>::max();
  for (const std::vector<double>* side : {&in.cost_next, &in.cost_prev}) {
    for (double c : *side) {
      costs += c;
      largest = std::max(largest, c);
      smallest = std::min(smallest, c);
    }
  }
  const long double horizon = 8 * loads * costs;
  const auto limit = static_cast<long double>(std::numeric_limits<double>::max());
  if (horizon > limit) {
    throw InputError(
        fmt::format("8 x the sum of loads ({}) x the sum of link costs ({:g}) is {:g}, beyond the "
                    "largest double: schedule times could overflow; scale the costs down",
                    static_cast<double>(loads), costs, horizon),
        cost_path(in, largest));
  }
  if (horizon / smallest > limit) {
    throw InputError(
        fmt::format("the longest possible schedule time ({:g}) divided by the smallest link cost "
                    "({:g}) exceeds the largest double: the gap to the lower bound could "
                    "overflow; the costs span too many orders of magnitude",
                    horizon, smallest),
        cost_path(in, smallest));
  }
}

std::vector<std::int64_t> average_targets(const std::vector<std::int64_t>& loads) {
  if (loads.empty()) return {};
  Int128 total = 0;
  for (std::int64_t l : loads) total += l;
  const auto n = static_cast<Int128>(loads.size());
  std::vector<std::int64_t> targets(loads.size(), static_cast<std::int64_t>(total / n));
  const auto extra = static_cast<std::size_t>(total % n);
  for (std::size_t i = 0; i < extra; ++i) ++targets[i];
  return targets;
}

std::vector<std::int64_t> imbalances(const Instance& in) {
  std::vector<std::int64_t> delta(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) delta[i] = in.imbalance(i);
  return delta;
}

std::vector<std::int64_t> prefix_imbalances(const Instance& in) {
  std::vector<std::int64_t> prefix(in.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    sum += in.imbalance(i);
    prefix[i] = sum;
  }
  return prefix;
}

double schedule_makespan(const Instance& in, const std::vector<Run>& runs) {
  double makespan = 0.0;
  for (const Run& r : runs) {
    if (r.count <= 0) continue;
    const double c = in.cost(static_cast<std::size_t>(r.from), r.dir);
    const double p = r.period > 0 ? r.period : c;
    makespan = std::max(makespan, r.start + static_cast<double>(r.count - 1) * p + c);
  }
  return makespan;
}

std::vector<std::int64_t> flows_of_runs(const Instance& in, const std::vector<Run>& runs) {
  std::vector<Int128> net(in.size(), 0);
  for (const Run& r : runs) {
    if (r.count <= 0) continue;
    const auto from = static_cast<std::size_t>(r.from);
    if (r.dir == Direction::next) {
      net[from] += r.count;
    } else {
      net[in.pred(from)] -= r.count;
    }
  }
  std::vector<std::int64_t> flows(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (net[i] > INT64_MAX || net[i] < INT64_MIN)
      throw std::overflow_error("flow overflows 64 bits");
    flows[i] = static_cast<std::int64_t>(net[i]);
  }
  return flows;
}

}  // namespace redist::ring
