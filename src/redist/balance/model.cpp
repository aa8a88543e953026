#include "redist/balance/model.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "redist/common/checked.hpp"
#include "redist/common/error.hpp"
#include "redist/ring/planner.hpp"

namespace redist::balance {
namespace {

std::string at(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

void require_positive(const std::vector<double>& values, const std::string& path,
                      const char* what) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || !(values[i] > 0.0))
      throw InputError(fmt::format("{} must be a finite number > 0", what), at(path, i));
  }
}

// The ring family's fields are those of its instance; in a balance document the costs sit in
// "ring" and the loads at the top.
[[noreturn]] void rethrow_in_balance(const InputError& e) {
  const std::string& path = e.path();
  if (path.empty()) throw InputError(e.message(), "ring");
  if (path.rfind("cost_", 0) == 0) throw InputError(e.message(), "ring." + path);
  throw;
}

void require_finite_model_times(const Trace& trace, std::int64_t items) {
  double slowest = std::numeric_limits<double>::max();
  for (const auto& row : trace.speeds)
    for (double s : row) slowest = std::min(slowest, s);
  const long double iteration = static_cast<long double>(items) / slowest;
  const long double run = iteration * static_cast<long double>(trace.iterations());
  if (run > static_cast<long double>(std::numeric_limits<double>::max()) / 4) {
    throw InputError(fmt::format("the items ({}) over the slowest speed ({:g}) for {} iterations "
                                 "exceed the double range; scale the speeds up",
                                 items, slowest, trace.iterations()),
                     "speeds");
  }
}

}  // namespace

std::int64_t Trace::items() const {
  std::int64_t n = 0;
  for (std::int64_t v : initial_loads) n += v;
  return n;
}

void validate_ring_costs(const RingCosts& ring) {
  const std::size_t p = ring.size();
  if (p < 2) throw InputError("a ring needs at least 2 processors", "ring.cost_next");
  if (p > kMaxProcessors)
    throw InputError(fmt::format("more than {} processors", kMaxProcessors), "ring.cost_next");
  require_positive(ring.cost_next, "ring.cost_next", "a link cost");
  if (ring.bidirectional && ring.cost_prev.size() != p)
    throw InputError(fmt::format("cost_prev has {} values, cost_next {}", ring.cost_prev.size(), p),
                     "ring.cost_prev");
  if (!ring.bidirectional && !ring.cost_prev.empty())
    throw InputError("a unidirectional ring has no cost_prev", "ring.cost_prev");
  require_positive(ring.cost_prev, "ring.cost_prev", "a link cost");
}

void validate_trace(const Trace& trace) {
  validate_ring_costs(trace.ring);
  const std::size_t p = trace.ring.size();
  if (trace.speeds.empty()) throw InputError("at least one iteration is needed", "speeds");
  if (trace.iterations() > kMaxIterations)
    throw InputError(fmt::format("more than {} iterations", kMaxIterations), "speeds");
  if (static_cast<double>(trace.speeds.size()) * static_cast<double>(p) >
      static_cast<double>(kMaxSpeedValues))
    throw InputError(fmt::format("more than {} speeds (iterations x processors)", kMaxSpeedValues),
                     "speeds");
  for (std::size_t t = 0; t < trace.speeds.size(); ++t) {
    const std::string row = at("speeds", t);
    if (trace.speeds[t].size() != p)
      throw InputError(
          fmt::format("{} speeds, the ring has {} processors", trace.speeds[t].size(), p), row);
    require_positive(trace.speeds[t], row, "a speed");
  }
  if (trace.initial_loads.size() != p)
    throw InputError(
        fmt::format("{} loads, the ring has {} processors", trace.initial_loads.size(), p),
        "loads");
  Int128 items = 0;
  for (std::size_t i = 0; i < p; ++i) {
    if (trace.initial_loads[i] < 0) throw InputError("a count must be >= 0", at("loads", i));
    items += trace.initial_loads[i];
  }
  if (items > std::numeric_limits<std::int64_t>::max())
    throw InputError("the loads sum beyond 64 bits", "loads");
  require_finite_model_times(trace, static_cast<std::int64_t>(items));
  try {
    ring::require_finite_times(
        redistribution_instance(trace.ring, trace.initial_loads, trace.initial_loads));
  } catch (const InputError& e) {
    rethrow_in_balance(e);
  }
}

ring::Instance redistribution_instance(const RingCosts& ring, std::vector<std::int64_t> loads,
                                       std::vector<std::int64_t> targets) {
  ring::Instance instance;
  instance.bidirectional = ring.bidirectional;
  instance.loads = std::move(loads);
  instance.targets = std::move(targets);
  instance.cost_next = ring.cost_next;
  instance.cost_prev = ring.cost_prev;
  return instance;
}

double redistribution_makespan(const RingCosts& ring, const std::vector<std::int64_t>& loads,
                               const std::vector<std::int64_t>& targets) {
  if (loads == targets) return 0.0;
  try {
    return ring::plan(redistribution_instance(ring, loads, targets)).makespan;
  } catch (const InputError& e) {
    rethrow_in_balance(e);
  }
}

double total_lower_bound(const Trace& trace) {
  const std::int64_t items = trace.items();
  double total = 0.0;
  for (const auto& row : trace.speeds) {
    double speed = 0.0;
    for (double s : row) speed += s;
    total += static_cast<double>(items) / speed;
  }
  return total;
}

}  // namespace redist::balance
