#include "redist/balance/decider.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "redist/balance/controller.hpp"
#include "redist/balance/targets.hpp"
#include "redist/balance/traces.hpp"
#include "redist/common/error.hpp"

namespace redist::balance {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Each processor's count as work and count / s_i(t) as time, as an application would report.
std::vector<double> exact_seconds(const std::vector<std::int64_t>& counts,
                                  const std::vector<double>& speeds) {
  std::vector<double> seconds;
  for (std::size_t i = 0; i < speeds.size(); ++i)
    seconds.push_back(static_cast<double>(counts[i]) / speeds[i]);
  return seconds;
}

// A ring run through the decider alone, as a caller without RebalanceController would write it:
// the counts as loads, the balanced targets of the speeds it returns as the proposal, the ring
// plan's makespan as the migration cost, and the decider's own T_bal and T_bound.
std::vector<Verdict> decider_run(const Trace& trace, const std::string& policy,
                                 RebalanceSettings settings) {
  RebalanceDecider decider(trace.ring.size(), make_policy(policy, trace.iterations()),
                           trace.iterations(), settings);
  std::vector<std::int64_t> counts = trace.initial_loads;
  std::vector<Verdict> verdicts;
  for (const auto& speeds : trace.speeds) {
    Observation o;
    o.loads = as_loads(counts);
    o.seconds = exact_seconds(counts, speeds);
    const std::vector<double> s = decider.observe(o);
    const std::vector<std::int64_t> targets = balanced_targets(trace.items(), s);
    Proposal p;
    p.loads = as_loads(targets);
    p.migration_cost = [&] { return redistribution_makespan(trace.ring, counts, targets); };
    verdicts.push_back(decider.decide(p));
    if (!verdicts.back().rebalance) continue;
    decider.rebalanced(verdicts.back());
    counts = targets;
  }
  return verdicts;
}

std::vector<RebalanceDecision> controller_run(const Trace& trace, const std::string& policy,
                                              RebalanceSettings settings) {
  RebalanceController controller(trace.ring, make_policy(policy, trace.iterations()),
                                 trace.iterations(), settings);
  std::vector<std::int64_t> counts = trace.initial_loads;
  std::vector<RebalanceDecision> decisions;
  for (const auto& speeds : trace.speeds) {
    const std::vector<double> seconds = exact_seconds(counts, speeds);
    decisions.push_back(controller.decide(counts, as_loads(counts), seconds));
    if (!decisions.back().rebalance) continue;
    controller.rebalanced(decisions.back());
    counts = decisions.back().targets;
  }
  return decisions;
}

// The decider used directly on the ring decides exactly as RebalanceController: the same
// answers, times and planned makespans, bit for bit, for every online policy, with and without
// speed estimates.
TEST(RebalanceDecider, OnTheRingDecidesAsTheController) {
  int rebalances = 0;
  for (std::uint64_t seed = 1; seed <= 45; ++seed) {
    TraceSpec spec;
    spec.drift = static_cast<Drift>(seed % 3);
    spec.processors = 2 + seed % 9;
    spec.iterations = 20 + static_cast<std::int64_t>(seed % 40);
    spec.items = 200 + static_cast<std::int64_t>(seed * 13 % 2000);
    spec.ratio = std::pow(10.0, static_cast<double>(seed % 4) - 1.5);
    spec.seed = seed;
    const Trace trace = random_trace(spec);
    for (const char* policy :
         {"every:3", "threshold:1.1", "threshold:1.1/window:3/cooldown:2", "cost-benefit",
          "period-rule", "stable-horizon", "replay", "hedged-replay"}) {
      for (const bool estimate : {false, true}) {
        RebalanceSettings settings;
        settings.estimate_speeds = estimate;
        const auto verdicts = decider_run(trace, policy, settings);
        const auto decisions = controller_run(trace, policy, settings);
        ASSERT_EQ(verdicts.size(), decisions.size());
        for (std::size_t k = 0; k < verdicts.size(); ++k) {
          const Verdict& v = verdicts[k];
          const RebalanceDecision& d = decisions[k];
          const std::string where = std::string(policy) + " seed " + std::to_string(seed) +
                                    " iteration " + std::to_string(k + 1);
          ASSERT_EQ(v.rebalance, d.rebalance) << where;
          EXPECT_EQ(v.reason, d.reason) << where;
          EXPECT_EQ(v.iteration_time, d.iteration_time) << where;
          EXPECT_EQ(v.balanced_time, d.balanced_time) << where;
          EXPECT_EQ(v.bound_time, d.bound_time) << where;
          EXPECT_EQ(v.migration_cost, d.plan_makespan) << where;
          EXPECT_EQ(v.speeds, d.speeds) << where;
          rebalances += v.rebalance ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(rebalances, 500);
}

// Four ranks hold 100 particles each; rank 3 is half as fast (100 particles in 2 s). A
// partitioner proposes loads proportional to the speeds.
Proposal proportional(const std::vector<double>& speeds, double total, double cost, int* calls) {
  double sum = 0.0;
  for (double s : speeds) sum += s;
  Proposal p;
  for (double s : speeds) p.loads.push_back(total * s / sum);
  p.migration_cost = [cost, calls] {
    ++*calls;
    return cost;
  };
  return p;
}

TEST(RebalanceDecider, PartitionedApplicationRebalancesWhenItPays) {
  int calls = 0;
  RebalanceDecider cheap(4, make_policy("cost-benefit", 100), 100);
  Observation o;
  o.loads = {100, 100, 100, 100};
  o.seconds = {1, 1, 1, 2};
  const std::vector<double> speeds = cheap.observe(o);
  EXPECT_EQ(speeds, std::vector<double>({100, 100, 100, 50}));
  const Verdict v = cheap.decide(proportional(speeds, 400, 10.0, &calls));
  // T = 2, T_bal = 400 / 350 (every rank at 8 / 7 s), T_bound the same; the gain 6 / 7 over
  // the 99 remaining iterations, 84.9, pays for a migration of 10, not for one of 100.
  EXPECT_TRUE(v.rebalance) << v.reason;
  EXPECT_DOUBLE_EQ(v.iteration_time, 2.0);
  EXPECT_DOUBLE_EQ(v.balanced_time, 8.0 / 7.0);
  EXPECT_DOUBLE_EQ(v.bound_time, 8.0 / 7.0);
  EXPECT_DOUBLE_EQ(v.predicted_saving, 6.0 / 7.0 * 99);
  EXPECT_TRUE(v.planned);
  EXPECT_EQ(v.migration_cost, 10.0);
  EXPECT_EQ(calls, 1);
  RebalanceDecider dear(4, make_policy("cost-benefit", 100), 100);
  EXPECT_FALSE(dear.decide(o, proportional(speeds, 400, 100.0, &calls)).rebalance);

  // After the migration every rank takes 8 / 7 s: balanced, nothing to gain, nothing planned.
  cheap.rebalanced(v);
  o.loads = v.targets;
  o.seconds.assign(4, 8.0 / 7.0);
  calls = 0;
  const Verdict after = cheap.decide(o, proportional(speeds, 400, 10.0, &calls));
  EXPECT_FALSE(after.rebalance);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(cheap.decisions(), 2);
}

TEST(RebalanceDecider, ThresholdNeverAsksForTheMigrationCost) {
  int calls = 0;
  RebalanceDecider d(4, make_policy("threshold:1.35", 10), 10);
  Observation o;
  o.loads = {100, 100, 100, 100};
  o.speeds = {100, 100, 100, 50};  // known speeds: T = 2, T_bound = 400 / 350
  const Verdict v = d.decide(o, proportional(o.speeds, 400, 10.0, &calls));
  EXPECT_TRUE(v.rebalance) << v.reason;  // 2 / (8 / 7) = 1.75 > 1.35
  EXPECT_DOUBLE_EQ(v.measured_time, 2.0);
  EXPECT_FALSE(v.planned);
  EXPECT_EQ(calls, 0);
}

TEST(RebalanceDecider, TakesTheCallersPredictions) {
  int calls = 0;
  RebalanceDecider d(2, make_policy("cost-benefit", 11), 11);
  Observation o;
  o.loads = {10, 10};
  o.speeds = {10, 5};  // T = 2
  Proposal p = proportional(o.speeds, 20, 5.0, &calls);
  p.balanced_time = 1.5;  // the partitioner knows that the proposal cannot reach 4 / 3
  p.bound_time = 1.25;
  const Verdict v = d.decide(o, p);
  EXPECT_DOUBLE_EQ(v.balanced_time, 1.5);
  EXPECT_DOUBLE_EQ(v.bound_time, 1.25);
  EXPECT_DOUBLE_EQ(v.predicted_saving, 0.5 * 10);
  EXPECT_FALSE(v.rebalance);  // 5 <= 5
}

TEST(RebalanceDecider, CalibratesTheMigrationCost) {
  RebalanceDecider d(2, make_policy("cost-benefit", 100), 100);
  d.migrated(10.0, 10.4);  // within 5%
  EXPECT_EQ(d.cost_factor(), 1.0);
  d.migrated(10.0, 29.6);  // 40 / 20
  d.migrated(kNaN, 1.0);   // ignored
  EXPECT_DOUBLE_EQ(d.cost_factor(), 2.0);
  Observation o;
  o.loads = {6, 2};
  o.speeds = {1, 1};  // gain 2 x 99 = 198
  Proposal p;
  p.loads = {4, 4};
  p.migration_cost = [] { return 99.5; };  // seen as 199
  const Verdict v = d.decide(o, p);
  EXPECT_FALSE(v.rebalance) << v.reason;
  EXPECT_EQ(v.migration_cost, 99.5);
  EXPECT_DOUBLE_EQ(v.cost_factor, 2.0);
}

TEST(RebalanceDecider, IdleRanksNoWorkAndTheLastIteration) {
  RebalanceDecider d(3, make_policy("every:1", 3), 3);
  Observation o;
  o.loads = {0, 0, 0};
  o.seconds = {0, 0, 0};
  EXPECT_TRUE(d.observe(o).empty());
  const Verdict none = d.decide(Proposal{});  // no proposal needed
  EXPECT_FALSE(none.consulted);
  o.loads = {4, 4, 0};
  o.seconds = {2, 1, 0};
  EXPECT_EQ(d.observe(o), std::vector<double>({2, 4, 3}));  // rank 2: the others' mean
  Proposal p;
  p.loads = {2, 4, 2};
  const Verdict v = d.decide(p);
  EXPECT_TRUE(v.rebalance);
  EXPECT_DOUBLE_EQ(v.balanced_time, 1.0);
  o.loads = p.loads;
  o.seconds = {1, 1, 1};
  const Verdict last = d.decide(o, p);
  EXPECT_FALSE(last.consulted);
  EXPECT_FALSE(last.rebalance);
}

// The path of the InputError that `action` throws.
template <class Action>
std::string error_path(Action&& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.path();
  }
  return "(no InputError)";
}

TEST(RebalanceDecider, RefusesBadObservationsNamingTheField) {
  RebalanceDecider d(3, make_policy("cost-benefit", 10), 10);
  const auto observe = [&](const Observation& o) { return [&d, o] { d.observe(o); }; };
  EXPECT_EQ(error_path(observe({{1, 1}, {1, 1, 1}, {}, {}})), "loads");
  EXPECT_EQ(error_path(observe({{1, kNaN, 1}, {1, 1, 1}, {}, {}})), "loads[1]");
  EXPECT_EQ(error_path(observe({{1, 1, -1}, {1, 1, 1}, {}, {}})), "loads[2]");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {1, 1}, {}, {}})), "seconds");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {1, -1, 1}, {}, {}})), "seconds[1]");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {kInf, 1, 1}, {}, {}})), "seconds[0]");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {}, {}, {}})), "seconds");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {}})), "speeds");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {}, {1, 0, 1}, {}})), "speeds[1]");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {}, {1, 1, 1}, {1, 1, 1}})), "work");
  EXPECT_EQ(error_path(observe({{1, 1, 1}, {1, 1, 1}, {}, {1, kNaN, 1}})), "work[1]");
  EXPECT_EQ(error_path(observe({{1e300, 1, 1}, {}, {1e-300, 1, 1}, {}})), "loads");
  // A speed work / time that overflows: a runtime_error naming the rank.
  Observation huge{{1e308, 1, 1}, {1e-308, 1, 1}, {}, {}};
  EXPECT_THROW(d.observe(huge), std::runtime_error);
  Observation zero_time{{1, 1, 1}, {1, 0, 1}, {}, {}};
  EXPECT_THROW(d.observe(zero_time), std::runtime_error);
  EXPECT_EQ(d.decisions(), 0);  // nothing was counted
  EXPECT_THROW(d.decide(Proposal{}), std::logic_error);
}

TEST(RebalanceDecider, RefusesBadProposalsAndKeepsTheObservation) {
  RebalanceDecider d(2, make_policy("cost-benefit", 10), 10);
  Observation o{{6, 2}, {}, {1, 1}, {}};
  d.observe(o);
  EXPECT_THROW(d.observe(o), std::logic_error);  // the first one awaits its decision
  const auto decide = [&](const Proposal& p) { return [&d, p] { d.decide(p); }; };
  EXPECT_EQ(error_path(decide({{4}, {}, {}, {}})), "proposal.loads");
  EXPECT_EQ(error_path(decide({{4, kInf}, {}, {}, {}})), "proposal.loads[1]");
  EXPECT_EQ(error_path(decide({{4, 4}, -1.0, {}, {}})), "proposal.balanced_time");
  EXPECT_EQ(error_path(decide({{4, 4}, {}, kNaN, {}})), "proposal.bound_time");
  EXPECT_EQ(d.decisions(), 1);  // still the first observation
  // cost-benefit asks for the cost: none given, or one that is not a finite number >= 0.
  EXPECT_EQ(error_path(decide({{4, 4}, {}, {}, {}})), "proposal.migration_cost");
  d.observe(o);
  EXPECT_EQ(error_path(decide({{4, 4}, {}, {}, [] { return kNaN; }})), "proposal.migration_cost");
  d.observe(o);
  EXPECT_TRUE(d.decide({{4, 4}, {}, {}, [] { return 1.0; }}).rebalance);
  EXPECT_EQ(d.decisions(), 3);
}

TEST(RebalanceDecider, RefusesBadConstruction) {
  EXPECT_EQ(error_path([] { RebalanceDecider(0, make_policy("never", 5), 5); }), "ranks");
  EXPECT_EQ(error_path([] { RebalanceDecider(2, make_policy("never", 5), 0); }), "iterations");
  EXPECT_THROW(RebalanceDecider(2, nullptr, 5), std::invalid_argument);
}

TEST(RebalanceDecider, ExtremeButFiniteValuesGiveFiniteTimes) {
  RebalanceDecider d(3, make_policy("threshold:1.5", 10), 10);
  // The sums of loads and of speeds overflow; their ratio does not.
  Observation o{{1e308, 1e308, 1e308}, {}, {1e308, 1e308, 0.5e308}, {}};
  Proposal p;
  p.loads = {1.2e308, 1.2e308, 0.6e308};
  const Verdict v = d.decide(o, p);
  EXPECT_DOUBLE_EQ(v.iteration_time, 2.0);
  EXPECT_DOUBLE_EQ(v.bound_time, 1.2);
  EXPECT_DOUBLE_EQ(v.balanced_time, 1.2);
  EXPECT_TRUE(v.rebalance);  // 2 / 1.2 > 1.5
}

}  // namespace
}  // namespace redist::balance
