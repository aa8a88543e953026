#include "redist/lau/model.hpp"

#include <fmt/format.h>

#include "redist/common/error.hpp"
#include "redist/lau/closed_forms.hpp"

namespace redist::lau {

namespace {

void check_size(std::size_t n) {
  if (n < 2) throw InputError(fmt::format("a ring needs at least 2 nodes, got {}", n), "loads");
  if (n > kMaxNodes) {
    throw InputError(fmt::format("at most {} nodes, got {}; split the ring into smaller instances",
                                 kMaxNodes, n),
                     "loads");
  }
}

}  // namespace

void validate_instance(const Instance& in) {
  const std::size_t n = in.size();
  check_size(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (in.loads[i] < 0) throw InputError("load must be >= 0", fmt::format("loads[{}]", i));
  }
  const auto load_sum = checked_sum(in.loads);
  if (!load_sum) throw InputError("sum of loads overflows 64 bits", "loads");
  if (in.targets.size() != n) {
    throw InputError(fmt::format("has {} entries, loads has {}", in.targets.size(), n), "targets");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (in.targets[i] < 0) throw InputError("target must be >= 0", fmt::format("targets[{}]", i));
  }
  const auto target_sum = checked_sum(in.targets);
  if (!target_sum) throw InputError("sum of targets overflows 64 bits", "targets");
  if (*target_sum != *load_sum) {
    throw InputError(
        fmt::format("targets sum to {}, loads to {} (they must be equal)", *target_sum, *load_sum),
        "targets");
  }
}

Instance balanced_instance(std::vector<std::int64_t> loads) {
  Instance in;
  in.loads = std::move(loads);
  const std::size_t n = in.size();
  check_size(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (in.loads[i] < 0) throw InputError("load must be >= 0", fmt::format("loads[{}]", i));
  }
  const auto sum = checked_sum(in.loads);
  if (!sum) throw InputError("sum of loads overflows 64 bits", "loads");
  const auto nn = static_cast<std::int64_t>(n);
  if (*sum % nn != 0) {
    throw InputError(fmt::format("sum of loads {} is not divisible by n = {} (give targets to "
                                 "balance to other values)",
                                 *sum, n),
                     "loads");
  }
  in.targets.assign(n, *sum / nn);
  return in;
}

std::vector<std::int64_t> linear_flows(const Instance& in) {
  // |prefix| <= total load, which fits int64 (validate_instance), so no step can overflow.
  std::vector<std::int64_t> flows(in.size());
  std::int64_t prefix = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    prefix += in.loads[i] - in.targets[i];
    flows[i] = prefix;
  }
  return flows;
}

std::vector<std::int64_t> shifted(const std::vector<std::int64_t>& flows, std::int64_t h) {
  std::vector<std::int64_t> out(flows.size());
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto v = checked_sub(flows[i], h);
    if (!v) throw InputError(fmt::format("flow {} - h = {} overflows 64 bits", i, h), "h");
    out[i] = *v;
  }
  return out;
}

Int128 sent_by(const std::vector<std::int64_t>& flows, std::size_t i) {
  const std::size_t n = flows.size();
  const std::int64_t right = flows[i], left = flows[(i + n - 1) % n];
  return Int128{right > 0 ? right : 0} + Int128{left < 0 ? -Int128{left} : 0};
}

bool is_red(const Instance& in, const std::vector<std::int64_t>& flows, std::size_t i) {
  return Int128{in.loads[i]} < sent_by(flows, i);
}

std::int64_t traffic(const std::vector<std::int64_t>& flows) {
  Int128 total = 0;
  for (std::int64_t f : flows) total += f < 0 ? -Int128{f} : Int128{f};
  if (total > Int128{INT64_MAX}) throw InputError("traffic overflows 64 bits", "flows");
  return static_cast<std::int64_t>(total);
}

std::optional<std::size_t> unbalanced_node(const Instance& in,
                                           const std::vector<std::int64_t>& flows) {
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    // l_i - t_i = flows[i] - flows[i-1], in 128 bits.
    const Int128 lhs = Int128{in.loads[i]} - in.targets[i];
    const Int128 rhs = Int128{flows[i]} - flows[(i + n - 1) % n];
    if (lhs != rhs) return i;
  }
  return std::nullopt;
}

void complete_plan(const Instance& in, Plan& plan) {
  plan.t_single = t_single_closed(in, plan.flows);
  plan.t_multi = t_multi_closed(in, plan.flows);
  plan.traffic = traffic(plan.flows);
}

const char* mode_name(Mode mode) { return mode == Mode::single ? "single" : "multi"; }

Time time_in(const Plan& plan, Mode mode) {
  return mode == Mode::single ? plan.t_single : plan.t_multi;
}

}  // namespace redist::lau
