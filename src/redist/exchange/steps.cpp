#include "redist/exchange/steps.hpp"

#include <algorithm>
#include <utility>

#include "redist/common/tolerance.hpp"
#include "redist/exchange/bounds.hpp"

namespace redist::exchange {

Plan lay_out_steps(const Instance& instance, const std::vector<Step>& steps) {
  Plan plan;
  double start = 0.0;
  for (const Step& step : steps) {
    double longest = 0.0;
    for (const StepPiece& s : step) {
      const Message& m = instance.messages[s.message];
      plan.pieces.push_back({m.from, m.to, start, s.bytes});
      longest = std::max(longest, piece_seconds(instance, plan.pieces.back()));
    }
    start += longest;
  }
  plan.makespan = start;
  return plan;
}

std::size_t step_capacity(const Instance& instance) {
  std::vector<bool> sends(instance.nodes, false), receives(instance.nodes, false);
  for (const Message& m : instance.messages) {
    sends[static_cast<std::size_t>(m.from)] = true;
    receives[static_cast<std::size_t>(m.to)] = true;
  }
  const auto senders = static_cast<std::size_t>(std::count(sends.begin(), sends.end(), true));
  const auto receivers =
      static_cast<std::size_t>(std::count(receives.begin(), receives.end(), true));
  std::size_t k = std::min(senders, receivers);
  if (instance.backbone) k = std::min(k, static_cast<std::size_t>(instance.backbone->transfers));
  return k;
}

StepStats step_bound(const Instance& instance) {
  StepStats out;
  const std::size_t k = step_capacity(instance);
  if (k == 0) return out;
  std::vector<double> send(instance.nodes, 0.0), recv(instance.nodes, 0.0);
  std::vector<std::size_t> out_degree(instance.nodes, 0), in_degree(instance.nodes, 0);
  double total = 0.0;
  for (const Message& m : instance.messages) {
    const auto i = static_cast<std::size_t>(m.from), j = static_cast<std::size_t>(m.to);
    const double d = static_cast<double>(m.bytes) / instance.rate(i, j);
    send[i] += d;
    recv[j] += d;
    total += d;
    ++out_degree[i];
    ++in_degree[j];
  }
  const double widest = std::max(*std::max_element(send.begin(), send.end()),
                                 *std::max_element(recv.begin(), recv.end()));
  const std::size_t degree = std::max(*std::max_element(out_degree.begin(), out_degree.end()),
                                      *std::max_element(in_degree.begin(), in_degree.end()));
  const std::size_t m = instance.messages.size();
  out.eta_d = std::max(widest, total / static_cast<double>(k));
  out.eta_s = std::max(degree, (m + k - 1) / k);
  out.lower_bound = out.eta_d + instance.latency * static_cast<double>(out.eta_s);
  return out;
}

Plan step_plan(const Instance& instance, const std::vector<Step>& steps, std::string algorithm) {
  std::vector<Step> kept;
  for (const Step& s : steps) {
    if (!s.empty()) kept.push_back(s);
  }
  Plan plan = lay_out_steps(instance, kept);
  plan.algorithm = std::move(algorithm);
  plan.bounds = bounds(instance);
  plan.lower_bound = plan.bounds.lower_bound;
  // eta bounds the schedules whose steps hold at most k pieces; with a backbone, min-steps and the
  // caterpillar count only crossing pieces against k, and their steps may hold more.
  const std::size_t k = step_capacity(instance);
  if (std::all_of(kept.begin(), kept.end(), [k](const Step& s) { return s.size() <= k; })) {
    plan.steps = step_bound(instance);
    plan.steps->count = kept.size();
    // Each kept step holds a piece, and lay_out_steps starts its pieces together: the first
    // one's start is the step's.
    std::size_t first = 0;
    for (const Step& s : kept) {
      plan.steps->starts.push_back(plan.pieces[first].start);
      first += s.size();
    }
  }
  if (at_most(plan.makespan, plan.lower_bound.value_or(0.0)))
    plan.prove_optimal(Proof::lower_bound);
  return plan;
}

}  // namespace redist::exchange
