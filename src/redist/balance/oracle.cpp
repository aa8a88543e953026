#include "redist/balance/oracle.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "redist/balance/targets.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

using Counts = std::vector<std::int64_t>;

// The distinct distributions B_j (B_0: the initial loads, B_k: the targets of s(k - 1)) and, per
// distinct one, its iteration times. Sums of them are always accumulated forward from the start
// of a segment: a difference of prefix sums would cancel catastrophically when the times span
// hundreds of orders of magnitude (1e144 then 1: the later terms vanish).
struct States {
  std::vector<std::size_t> state;  // state[j]: index of B_j among the distinct ones
  std::vector<Counts> distinct;
  std::vector<std::vector<double>> times;  // times[d][t] = T_t(distinct[d])
};

States distinct_states(const Trace& trace) {
  States s;
  std::map<Counts, std::size_t> index;
  const auto intern = [&](Counts counts) {
    const auto [it, fresh] = index.emplace(std::move(counts), s.distinct.size());
    if (fresh) s.distinct.push_back(it->first);
    s.state.push_back(it->second);
  };
  intern(trace.initial_loads);
  for (std::int64_t k = 1; k < trace.iterations(); ++k)
    intern(balanced_targets(trace.items(), trace.speeds[static_cast<std::size_t>(k - 1)]));
  for (const Counts& counts : s.distinct) {
    std::vector<double> times;
    for (const auto& speeds : trace.speeds) times.push_back(iteration_time(counts, speeds));
    s.times.push_back(std::move(times));
  }
  return s;
}

void check_limits(const Trace& trace) {
  const auto k = static_cast<double>(trace.iterations());
  if (trace.iterations() > kMaxOracleIterations ||
      k * k * static_cast<double>(trace.ring.size()) > kMaxOracleWork)
    throw OptionError(
        fmt::format("the oracle takes at most {} iterations and iterations^2 x "
                    "processors <= {:g}; this trace has {} x {}",
                    kMaxOracleIterations, kMaxOracleWork, trace.iterations(), trace.ring.size()),
        "policy");
}

}  // namespace

SimulationResult hindsight_optimum(const Trace& trace) {
  return hindsight_optimum(trace, [&](const Counts& from, const Counts& to) {
    return redistribution_makespan(trace.ring, from, to);
  });
}

SimulationResult hindsight_optimum(const Trace& trace, const RedistributionCost& cost) {
  validate_trace(trace);
  check_limits(trace);
  const States s = distinct_states(trace);
  const auto K = static_cast<std::size_t>(trace.iterations());
  std::map<std::pair<std::size_t, std::size_t>, double> plans;
  const auto makespan = [&](std::size_t from, std::size_t to) {
    const auto key = std::make_pair(from, to);
    const auto it = plans.find(key);
    if (it != plans.end()) return it->second;
    const double m = cost(s.distinct[from], s.distinct[to]);
    return plans.emplace(key, m).first->second;
  };
  // best[k]: least time of iterations 0..k-1 plus every redistribution, the last one after
  // iteration k (best[0] = 0: the run starts with B_0). Forward: once best[j] is final (every
  // earlier point has pushed), the segment from j is summed term by term and offered to every
  // later k. A rebalance between equal distributions changes nothing, so it is never taken. Ties
  // keep the earliest j; `end` is the last rebalance point of the best run.
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> best(K, kInf);
  std::vector<std::size_t> last(K, 0);
  best[0] = 0.0;
  double best_total = kInf;
  std::size_t end = 0;
  for (std::size_t j = 0; j < K; ++j) {
    if (best[j] == kInf) continue;
    const std::vector<double>& times = s.times[s.state[j]];
    double segment = 0.0;  // sum_{t=j}^{k-1} T_t(B_j)
    for (std::size_t k = j + 1; k < K; ++k) {
      segment += times[k - 1];
      if (s.state[j] == s.state[k]) continue;
      const double total = best[j] + segment + makespan(s.state[j], s.state[k]);
      if (total < best[k]) best[k] = total, last[k] = j;
    }
    const double total = best[j] + segment + times[K - 1];
    if (total < best_total) best_total = total, end = j;
  }
  std::vector<std::int64_t> points;
  for (std::size_t k = end; k != 0; k = last[k]) points.push_back(static_cast<std::int64_t>(k));
  std::reverse(points.begin(), points.end());
  SimulationResult result = simulate_points(trace, points);
  result.policy = "oracle";
  return result;
}

}  // namespace redist::balance
