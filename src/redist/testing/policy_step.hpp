// A policy's Step (balance/policy.hpp) with given loads, speeds, targets and times, for the tests
// of the rebalancing policies: plan_makespan returns the given makespan and counts its calls.
#pragma once

#include <cstdint>
#include <vector>

#include "redist/balance/policy.hpp"

namespace redist::testkit {

struct FakeStep {
  std::vector<double> counts{10, 10};
  std::vector<double> speeds{1, 1};
  std::vector<double> targets{10, 10};
  int plans = 0;
  // The step refers to this object's vectors and counter: keep it alive while the step is used.
  balance::Step make(std::int64_t k, std::int64_t K, double time, double balanced, double bound,
                     double makespan) {
    balance::Step s;
    s.after_iteration = k;
    s.iterations = K;
    s.loads = &counts;
    s.speeds = &speeds;
    s.targets = &targets;
    s.iteration_time = time;
    s.balanced_time = balanced;
    s.bound_time = bound;
    s.plan_makespan = [this, makespan] {
      ++plans;
      return makespan;
    };
    return s;
  }
};

}  // namespace redist::testkit
