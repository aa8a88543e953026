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
// distinct one, the prefix sums of its iteration times.
struct States {
  std::vector<std::size_t> state;  // state[j]: index of B_j among the distinct ones
  std::vector<Counts> distinct;
  std::vector<std::vector<double>> prefix;  // prefix[d][t] = sum_{u < t} T_u(distinct[d])
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
    std::vector<double> prefix(1, 0.0);
    for (const auto& speeds : trace.speeds)
      prefix.push_back(prefix.back() + iteration_time(counts, speeds));
    s.prefix.push_back(std::move(prefix));
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
  // iteration k (best[0] = 0: the run starts with B_0). A rebalance between equal distributions
  // changes nothing, so it is never taken. Ties keep the earliest j.
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> best(K, kInf);
  std::vector<std::size_t> last(K, 0);
  best[0] = 0.0;
  const auto run = [&](std::size_t j, std::size_t k) {
    const auto& p = s.prefix[s.state[j]];
    return best[j] + (p[k] - p[j]);
  };
  for (std::size_t k = 1; k < K; ++k) {
    for (std::size_t j = 0; j < k; ++j) {
      if (s.state[j] == s.state[k] || best[j] == kInf) continue;
      const double total = run(j, k) + makespan(s.state[j], s.state[k]);
      if (total < best[k]) best[k] = total, last[k] = j;
    }
  }
  std::size_t end = 0;
  for (std::size_t j = 1; j < K; ++j)
    if (best[j] < kInf && run(j, K) < run(end, K)) end = j;
  std::vector<std::int64_t> points;
  for (std::size_t k = end; k != 0; k = last[k]) points.push_back(static_cast<std::int64_t>(k));
  std::reverse(points.begin(), points.end());
  SimulationResult result = simulate_points(trace, points);
  result.policy = "oracle";
  return result;
}

}  // namespace redist::balance
