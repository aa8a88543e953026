#include "redist/star/validate.hpp"

#include <optional>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace redist::star
