#include "redist/star/validate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "redist/common/tolerance.hpp"
#include "redist/star/planner.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::star {
namespace {

Instance two_workers() { return Instance{{1, 2}, {1, 1}, {4, 0}}; }

// A schedule as read from a file, with the claims it states.
struct Read : Schedule {
  Stated stated;
};

// Finish not stated, makespan stated only when passed.
Read with(std::vector<Transfer> t, std::optional<double> makespan = std::nullopt) {
  Read s;
  s.transfers = std::move(t);
  s.stated.makespan = makespan.has_value();
  s.makespan = makespan.value_or(0.0);
  s.stated.finish = false;
  return s;
}

CheckResult check(const Instance& in, const Read& s) { return star::check(in, s, s.stated); }

TEST(StarValidate, NoTransfer) {
  const auto r = check(two_workers(), with({}, 4));
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 4);
}

TEST(StarValidate, OneTransfer) {
  // Task leaves worker 0 during [0,1), master forwards during [1,3), computed on 1 during [3,4).
  const auto r = check(two_workers(), with({{0, 1, 0, 1}}, 4));
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 4);  // worker 0 keeps 3 tasks: 3; worker 1: 4
}

TEST(StarValidate, ForwardBeforeArrival) {
  const auto r = check(two_workers(), with({{0, 1, 0, 0.5}}));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("arrives only"), std::string::npos) << r.reason;
}

TEST(StarValidate, MasterReceivePortOverlap) {
  const auto r = check(two_workers(), with({{0, 1, 0, 1}, {0, 1, 0.5, 3}}));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("receive port"), std::string::npos) << r.reason;
}

TEST(StarValidate, MasterSendPortOverlap) {
  const auto r = check(two_workers(), with({{0, 1, 0, 1}, {0, 1, 1, 2}}));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("send port"), std::string::npos) << r.reason;
}

TEST(StarValidate, NamesTheConflictingTransfersAsEntries) {
  const auto overlap = check(two_workers(), with({{0, 1, 0, 1}, {0, 1, 0.5, 3}}));
  EXPECT_EQ(overlap.entries, (std::vector<std::size_t>{0, 1})) << overlap.reason;
  const auto early = check(two_workers(), with({{0, 1, 0, 1}, {0, 1, 2, 2.5}}));
  EXPECT_EQ(early.entries, (std::vector<std::size_t>{1})) << early.reason;
  const auto wrong = check(two_workers(), with({{0, 1, 0, 1}, {1, 1, 2, 3}}));
  EXPECT_EQ(wrong.entries, (std::vector<std::size_t>{1})) << wrong.reason;
}

TEST(StarValidate, StructuralErrors) {
  EXPECT_FALSE(check(two_workers(), with({{0, 2, 0, 1}})).valid);
  EXPECT_FALSE(check(two_workers(), with({{-1, 1, 0, 1}})).valid);
  EXPECT_FALSE(check(two_workers(), with({{1, 1, 0, 2}})).valid);
  EXPECT_FALSE(check(two_workers(), with({{0, 1, -1, 1}})).valid);
}

TEST(StarValidate, SendingMoreThanHeld) {
  // Worker 1 holds nothing and receives nothing: it cannot send.
  const auto r = check(two_workers(), with({{1, 0, 0, 2}}));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("does not hold"), std::string::npos) << r.reason;
}

TEST(StarValidate, ForwardingAReceivedTask) {
  // 0 -> 1 arrives at 3; 1 forwards it at 3 (held, not computed) to 2.
  const Instance in{{1, 2, 1}, {1, 1, 1}, {2, 0, 0}};
  auto r = check(in, with({{0, 1, 0, 1}, {1, 2, 3, 5}}));
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 7);  // worker 2 gets it at 6, computes until 7
  // Forwarding before it arrives is invalid.
  r = check(in, with({{0, 1, 0, 1}, {1, 2, 2, 5}}));
  EXPECT_FALSE(r.valid);
}

TEST(StarValidate, MakespanAndFinishMustMatch) {
  EXPECT_FALSE(check(two_workers(), with({}, 5)).valid);
  Read s = with({}, 4);
  s.stated.finish = true;
  s.finish = {4, 0};
  EXPECT_TRUE(check(two_workers(), s).valid);
  s.finish = {4, 1};
  EXPECT_FALSE(check(two_workers(), s).valid);
  s.finish = {4};
  EXPECT_FALSE(check(two_workers(), s).valid);
}

TEST(StrictCheck, NegativeMakespanIsComparedNotIgnored) {
  EXPECT_TRUE(check(two_workers(), with({})).valid);  // not given: not compared
  const auto r = check(two_workers(), with({}, -4));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("differs"), std::string::npos) << r.reason;
}

TEST(StrictCheck, EmptyFinishIsAWrongLength) {
  Read s = with({}, 4);
  s.stated.finish = true;
  const auto r = check(two_workers(), s);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("finish has 0 entries"), std::string::npos) << r.reason;
}

TEST(StarValidate, IdleReceiverComputesOnArrival) {
  const Instance in{{1, 1}, {1, 10}, {0, 3}};
  // Worker 1 (slow) keeps 2 tasks (0..20) and sends one at 0; worker 0 computes it [2, 3).
  const auto r = check(in, with({{1, 0, 0, 1}}, 20));
  ASSERT_TRUE(r.valid) << r.reason;
}

// A transfer of 10 s and one of 1e-4 s start together on the master's receive port, a third
// starts 5e-4 s before the long one ends. With a tolerance of the makespan (1e-3 s here, a worker
// computing for 10^6 s) and only consecutive transfers compared, one of the orders passed.
TEST(StarValidate, ALongAndAShortTransferAtOnceOverlapInEveryOrder) {
  const Instance in{{10, 1e-4, 1e-4, 1, 1}, {1, 1, 1, 1, 1e6}, {1, 1, 1, 0, 1}};
  std::vector<Transfer> transfers{{0, 3, 0, 10}, {1, 3, 0, 11}, {2, 3, 9.9995, 12}};
  std::sort(transfers.begin(), transfers.end(),
            [](const Transfer& a, const Transfer& b) { return a.from < b.from; });
  int orders = 0;
  do {
    const auto r = check(in, with(transfers));
    EXPECT_FALSE(r.valid) << "order " << orders;
    EXPECT_NE(r.reason.find("overlap on the master's receive port"), std::string::npos) << r.reason;
    ++orders;
  } while (
      std::next_permutation(transfers.begin(), transfers.end(),
                            [](const Transfer& a, const Transfer& b) { return a.from < b.from; }));
  EXPECT_EQ(orders, 6);
  // The long one alone, the others after it: valid.
  EXPECT_TRUE(check(in, with({{0, 3, 0, 10}, {1, 3, 10, 11}, {2, 3, 10.0001, 12}})).valid);
}

// Two sends overlapping by 2e-3 s at time 0, beside a worker whose 10^6 own tasks make the
// makespan 10^6 s: with a tolerance of the makespan, a transfer at 4 x 10^6 s (within the
// horizon) used to hide them.
TEST(StarValidate, AFarAwayTransferHidesNoOverlap) {
  const Instance in{{1, 1, 1, 1}, {1, 1, 1, 1}, {2, 2, 0, 1000000}};
  std::vector<Transfer> transfers{{0, 2, 0, 1}, {1, 2, 0.998, 2}};
  EXPECT_FALSE(check(in, with(transfers)).valid);
  EXPECT_GT(horizon(in), 4e6);
  transfers.push_back({3, 2, 4e6, 4e6 + 1});
  const auto r = check(in, with(transfers));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("transfers 0 and 1 overlap on the master's receive port"),
            std::string::npos)
      << r.reason;
  // Beyond the horizon, refused as such, the horizon named.
  transfers.back() = {3, 2, 1e300, 1e300};
  const auto far = check(in, with(transfers));
  EXPECT_FALSE(far.valid);
  EXPECT_NE(far.reason.find("transfer 2: send_start 1e+300 is after the horizon 5000018"),
            std::string::npos)
      << far.reason;
}

// 100,000 sends of one second, each starting before the previous one ends by 0.9 of the allowance
// of that end: every overlap is within it, but together they save 4.5 s.
TEST(StarValidate, OverlapsWithinTheToleranceDoNotAddUp) {
  const std::int64_t n = 100000;
  const Instance in{{1, 1, 1}, {1, 1, 1}, {n, 0, 1}};
  std::vector<Transfer> transfers;
  double start = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    transfers.push_back({0, 1, start, start + 1});
    start += 1 - 0.9 * kTimeTolerance * (start + 1);
  }
  EXPECT_LT(transfers.back().send_start + 1, static_cast<double>(n) - 4);
  const auto r = check(in, with(transfers));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("the transfers on the master's receive port take 100000 in all"),
            std::string::npos)
      << r.reason;
  // A gap on the master's port and a transfer far after it hide nothing: the stretch of the
  // overlapping transfers is judged on its own.
  transfers.push_back({2, 1, 2 * static_cast<double>(n), 2 * static_cast<double>(n) + 1});
  const auto gap = check(in, with(transfers));
  EXPECT_FALSE(gap.valid);
  EXPECT_NE(gap.reason.find("the transfers on the master's receive port take 100000 in all"),
            std::string::npos)
      << gap.reason;
  // Without the overlaps: valid.
  for (std::int64_t k = 0; k < n; ++k) {
    transfers[static_cast<std::size_t>(k)] = {0, 1, static_cast<double>(k),
                                              static_cast<double>(k) + 1};
  }
  EXPECT_TRUE(check(in, with(transfers)).valid);
}

// Worker 1 forwards a task half a communication before it arrives: invalid at every scale (the
// holding rule used to accept 1e-9 s of absolute slack, all of it at this one's scale).
TEST(StarValidate, HoldingIsJudgedRelativeToTheTimes) {
  for (const double scale : {1e-9, 1.0, 1e9}) {
    const Instance in{{scale, scale, scale}, {scale, scale, scale}, {1, 0, 0}};
    const auto late = check(in, with({{0, 1, 0, scale}, {1, 2, 1.5 * scale, 2.5 * scale}}));
    EXPECT_FALSE(late.valid) << scale;
    EXPECT_NE(late.reason.find("a task it does not hold"), std::string::npos) << late.reason;
    const auto held = check(in, with({{0, 1, 0, scale}, {1, 2, 2 * scale, 3 * scale}}));
    EXPECT_TRUE(held.valid) << scale << ": " << held.reason;
  }
}

// Every schedule of every planner is valid, and gets the same verdict reversed and shuffled; so
// does each with one transfer moved earlier (often onto a busy port). Random platforms with
// non-integer times (c and w scaled over six decades), so that their times round.
TEST(StarValidate, EveryPlannersScheduleGetsOneVerdictInAnyOrder) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> decades(-3, 3), unit(0, 1);
  int compared = 0, invalid = 0;
  for (int trial = 0; trial < testkit::random_cases(300); ++trial) {
    const PlatformType type{trial % 2 == 0, trial % 3 == 0, static_cast<Range>(trial % 3)};
    Instance in = random_instance(rng, type, {2, 6, 0, 20});
    const double scale = std::pow(10.0, decades(rng));
    for (double& c : in.c) c *= scale;
    for (double& w : in.w) w *= scale * 1.1;
    std::int64_t tasks = 0;
    for (const std::int64_t l : in.loads) tasks += l;
    for (const char* name : {"bba", "mbbsa", "mbbsa-lazy", "rbsa", "exact", "best"}) {
      if (std::string(name) == "exact" && tasks > 12) continue;
      const Schedule s = plan(in, {name});
      const auto verdict = star::check(in, s);
      EXPECT_TRUE(verdict.valid) << name << " trial " << trial << ": " << verdict.reason;
      Schedule moved = s;
      if (!moved.transfers.empty()) {
        Transfer& t = moved.transfers[rng() % moved.transfers.size()];
        const double by = unit(rng) * in.c[static_cast<std::size_t>(t.from)];
        t.send_start = std::max(0.0, t.send_start - by);
        t.forward_start = std::max(0.0, t.forward_start - by);
      }
      const bool moved_valid = star::check(in, moved).valid;
      invalid += !moved_valid;
      for (const auto& [schedule, valid] :
           {std::pair{s, verdict.valid}, std::pair{moved, moved_valid}}) {
        Schedule reversed = schedule, shuffled = schedule;
        std::reverse(reversed.transfers.begin(), reversed.transfers.end());
        std::shuffle(shuffled.transfers.begin(), shuffled.transfers.end(), rng);
        EXPECT_EQ(star::check(in, reversed).valid, valid) << name << " trial " << trial;
        EXPECT_EQ(star::check(in, shuffled).valid, valid) << name << " trial " << trial;
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, testkit::random_cases(300) * 5);
  EXPECT_GE(invalid, testkit::random_cases(300));  // the moved transfers do break schedules
}

}  // namespace
}  // namespace redist::star
