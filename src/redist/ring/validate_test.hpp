// The helpers of the ring validator's tests (validate_test.cpp, validate_random_test.cpp):
// instances, runs and schedules that state what a schedule document states, and the checks of an
// invalid verdict.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "redist/ring/validate.hpp"

namespace redist::ring::validate_testing {

constexpr Direction kNext = Direction::next;
constexpr Direction kPrev = Direction::prev;

inline Instance unidirectional(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
                               std::vector<double> cost_next) {
  return Instance{false, std::move(loads), std::move(targets), std::move(cost_next), {}};
}

inline Instance bidirectional(std::vector<std::int64_t> loads, std::vector<std::int64_t> targets,
                              std::vector<double> cost_next, std::vector<double> cost_prev) {
  return Instance{true, std::move(loads), std::move(targets), std::move(cost_next),
                  std::move(cost_prev)};
}

inline Run run(std::int64_t from, Direction dir, double start, std::int64_t count,
               double period = 0.0) {
  return Run{from, dir, start, count, period};
}

// A schedule with what it states, as a schedule document gives them.
struct StatedSchedule {
  Schedule schedule;
  Stated stated;
};

// A schedule stating `makespan` when it is >= 0 and `flows` when non-empty.
inline StatedSchedule schedule(std::vector<Run> runs, double makespan = -1.0,
                               std::vector<std::int64_t> flows = {}) {
  StatedSchedule s;
  s.schedule.makespan = makespan;
  s.stated.makespan = makespan >= 0;
  s.schedule.flows = std::move(flows);
  s.stated.flows = !s.schedule.flows.empty();
  s.schedule.transfers = std::move(runs);
  return s;
}

inline CheckResult check(const Instance& in, const StatedSchedule& s) {
  return ring::check(in, s.schedule, s.stated);
}

inline bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Expects an invalid schedule whose reason starts with `prefix` and contains `fragment`.
inline void expect_invalid(const Instance& in, const StatedSchedule& s, const std::string& prefix,
                           const std::string& fragment) {
  const CheckResult r = check(in, s);
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(starts_with(r.reason, prefix)) << r.reason;
  EXPECT_NE(r.reason.find(fragment), std::string::npos) << r.reason;
}

}  // namespace redist::ring::validate_testing
