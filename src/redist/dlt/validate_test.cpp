#include "redist/dlt/validate.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "redist/common/tolerance.hpp"
#include "redist/dlt/planner.hpp"
#include "redist/dlt/random_instances.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::dlt {
namespace {

Schedule planned(const Instance& in, Solver solver) {
  Schedule s = solve(in, solver);
  add_transfers(s);
  return s;
}

TEST(PhysicalValidity, DltWorkerNeverSendsMoreThanItHolds) {
  // Worker 1 holds nothing; LP 7 without delta_i <= alpha_i lets it send.
  const Instance in{{1, 10, 100}, {1, 0.1, 100}, {100, 0, 0}};
  for (const Solver solver : {Solver::fast, Solver::lp}) {
    const Schedule s = planned(in, solver);
    for (std::size_t i = 0; i < in.alpha.size(); ++i) {
      EXPECT_LE(s.delta[i], in.alpha[i] + kTimeTolerance) << to_string(solver) << " worker " << i;
    }
    const auto r = check(in, s);
    EXPECT_TRUE(r.valid) << to_string(solver) << ": " << r.reason;
  }
}

TEST(PhysicalValidity, DltNamesTheWrongTransferAsAnEntry) {
  const Instance in{{2, 1, 4, 1}, {1, 3, 2, 1}, {10, 0, 2, 6}};
  Schedule s = planned(in, Solver::fast);
  ASSERT_GE(s.transfers.size(), 2U);
  s.transfers[1].rate = -1;
  const auto r = check(in, s);
  ASSERT_FALSE(r.valid);
  EXPECT_EQ(r.entries, (std::vector<std::size_t>{1})) << r.reason;
  s.transfers[1].rate = 1e9;  // a link over its bandwidth: about a worker, not a transfer
  const auto link = check(in, s);
  ASSERT_FALSE(link.valid);
  EXPECT_TRUE(link.entries.empty()) << link.reason;
}

TEST(PhysicalValidity, DltRandomPlansPassTheIndependentCheck) {
  std::mt19937_64 rng(20261123);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    // Six orders of magnitude: some links far slower than the speeds and the converse (where the
    // paper's LP 7 alone lets empty workers send).
    const Instance in = random_instance(rng, 6, 10);
    const Schedule fast = planned(in, Solver::fast), lp = planned(in, Solver::lp);
    // delta_i <= alpha_i keeps LP 7's optimum: the two solvers still agree.
    ASSERT_NEAR(fast.makespan, lp.makespan, 1e-7 * lp.makespan) << trial;
    for (const Schedule* s : {&fast, &lp}) {
      const auto r = check(in, *s);
      ASSERT_TRUE(r.valid) << trial << " " << to_string(s->solver) << ": " << r.reason;
      EXPECT_NEAR(r.makespan, s->makespan, 1e-9 * s->makespan) << trial;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 6000);
}

TEST(ResourceLimits, TransfersAreLinearInWorkers) {
  // Half senders, half receivers: equations 8-9 would write 3000 x 3000 transfers.
  const std::size_t m = 6000;
  Instance in;
  for (std::size_t i = 0; i < m; ++i) {
    in.b.push_back(1.0 + static_cast<double>(i % 7));
    in.s.push_back(1.0 + static_cast<double>(i % 5));
    in.alpha.push_back(i % 2 == 0 ? 100.0 + static_cast<double>(i % 11) : 0.0);
  }
  const Schedule s = planned(in, Solver::fast);
  std::size_t senders = 0, receivers = 0;
  for (double d : s.delta) senders += d > 0, receivers += d < 0;
  ASSERT_GT(senders, 1000u);
  ASSERT_GT(receivers, 1000u);
  EXPECT_LE(s.transfers.size(), senders + receivers - 1);
  const auto r = check(in, s);
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(StrictCheck, DltValidatorRejectsImpossibleSchedules) {
  const Instance in{{1, 1}, {1, 1}, {10, 0}};
  // A document stating neither makespan nor delta, unless the case states one.
  Schedule ok;
  ok.transfers = {{0, 1, 5, 1}};
  auto r = check(in, ok, {false, false});
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 5);
  auto expect_invalid = [&](const Schedule& s, const std::string& want,
                            Stated stated = {false, false}) {
    const auto v = check(in, s, stated);
    EXPECT_FALSE(v.valid) << want;
    EXPECT_NE(v.reason.find(want), std::string::npos) << v.reason;
  };
  Schedule s = ok;
  s.transfers = {{1, 0, 1, 1}};
  expect_invalid(s, "holds only");  // worker 1 holds nothing
  s.transfers = {{0, 1, 5, 2}};
  expect_invalid(s, "bandwidth");  // rate 2 on links of bandwidth 1
  s.transfers = {{0, 1, 5, 1}, {1, 0, 1, 0.5}};
  expect_invalid(s, "both sends");
  s.transfers = {{0, 2, 5, 1}};
  expect_invalid(s, "unknown worker");
  s.transfers = {{0, 0, 5, 1}};
  expect_invalid(s, "from equals to");
  s.transfers = {{0, 1, 5, 0}};
  expect_invalid(s, "rate");
  s = ok;
  s.makespan = -5;
  expect_invalid(s, "differs", {true, false});
  s = ok;
  s.delta = std::vector<double>{};
  expect_invalid(s, "delta has 0 entries", {false, true});
  s.delta = std::vector<double>{5, -4};
  expect_invalid(s, "delta[1]", {false, true});
}

// Worker 1 holds 1 beside a worker holding 10^9: a tolerance of the total load (1) used to let it
// send 1.5, and state a delta half a unit off.
TEST(StrictCheck, ALargeWorkerWidensNoSmallOnesTolerance) {
  const Instance in{{1, 1, 1}, {1, 1, 1}, {1e9, 1, 0}};
  Schedule s;
  s.transfers = {{1, 2, 1.5, 1}};
  const auto sends = check(in, s, {false, false});
  EXPECT_FALSE(sends.valid);
  EXPECT_NE(sends.reason.find("worker 1 sends 1.5 but holds only 1"), std::string::npos)
      << sends.reason;
  s.transfers = {{1, 2, 1, 1}};
  EXPECT_TRUE(check(in, s, {false, false}).valid);
  s.delta = {0, 1.5, -1};
  const auto delta = check(in, s, {false, true});
  EXPECT_FALSE(delta.valid);
  EXPECT_NE(delta.reason.find("delta[1] = 1.5"), std::string::npos) << delta.reason;
  s.delta = {0, 1, -1};
  EXPECT_TRUE(check(in, s, {false, true}).valid);
}

// Every schedule of both solvers is valid, and gets the same verdict reversed and shuffled; so
// does each with one transfer's amount raised by up to a half (often beyond what its sender holds,
// always beyond its stated delta).
TEST(StrictCheck, EveryPlannersScheduleGetsOneVerdictInAnyOrder) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> unit(0, 1);
  int compared = 0;
  for (int trial = 0; trial < testkit::random_cases(500); ++trial) {
    const Instance in = random_instance(rng, 6, 10);
    for (const Solver solver : {Solver::fast, Solver::lp}) {
      const Schedule s = planned(in, solver);
      const auto verdict = check(in, s);
      EXPECT_TRUE(verdict.valid) << trial << " " << to_string(solver) << ": " << verdict.reason;
      Schedule raised = s;
      if (!raised.transfers.empty()) {
        raised.transfers[rng() % raised.transfers.size()].amount *= 1 + unit(rng) / 2;
      }
      const bool raised_valid = check(in, raised).valid;
      for (const auto& [schedule, valid] :
           {std::pair{s, verdict.valid}, std::pair{raised, raised_valid}}) {
        Schedule reversed = schedule, shuffled = schedule;
        std::reverse(reversed.transfers.begin(), reversed.transfers.end());
        std::shuffle(shuffled.transfers.begin(), shuffled.transfers.end(), rng);
        EXPECT_EQ(check(in, reversed).valid, valid) << trial << " " << to_string(solver);
        EXPECT_EQ(check(in, shuffled).valid, valid) << trial << " " << to_string(solver);
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, testkit::random_cases(500) * 2);
}

}  // namespace
}  // namespace redist::dlt
