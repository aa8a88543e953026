#include "redist/exchange/validate.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"

#include <algorithm>
#include <random>

#include "redist/exchange/planner.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

Instance two_messages() {
  Instance in;
  in.nodes = 3;
  in.messages = {{0, 1, 10}, {2, 1, 10}};
  in.send_bandwidth = {1.0, 1.0, 2.0};
  in.recv_bandwidth = {1.0, 5.0, 1.0};
  in.latency = 1.0;
  return in;
}

Plan planned(const Instance&, std::vector<Piece> pieces, double makespan) {
  Plan p;
  p.algorithm = "hand";
  p.pieces = std::move(pieces);
  p.makespan = makespan;
  return p;
}

TEST(Check, AcceptsAHandScheduleAndRecomputesTheMakespan) {
  // 0 -> 1 at rate 1: 1 + 10 = 11; then 2 -> 1 at rate 2: 1 + 5 = 6.
  const Instance in = two_messages();
  const CheckResult r = check(in, planned(in, {{0, 1, 0, 10}, {2, 1, 11, 10}}, 17));
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 17.0);
}

TEST(Check, RejectsAnOverlapOnAReceivePort) {
  const Instance in = two_messages();
  const CheckResult r = check(in, planned(in, {{0, 1, 0, 10}, {2, 1, 10.5, 10}}, 16.5));
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("receive port of node 1"), std::string::npos) << r.reason;
}

TEST(Check, RejectsMissingAndDuplicatedBytes) {
  const Instance in = two_messages();
  EXPECT_FALSE(check(in, planned(in, {{0, 1, 0, 9}, {2, 1, 11, 10}}, 17), {false}).valid);
  EXPECT_FALSE(
      check(in, planned(in, {{0, 1, 0, 10}, {0, 1, 11, 1}, {2, 1, 23, 10}}, 29), {false}).valid);
}

TEST(Check, ChargesTheLatencyPerPiece) {
  // Cutting 0 -> 1 in two pieces costs a second latency: back to back they overlap.
  const Instance in = two_messages();
  EXPECT_FALSE(
      check(in, planned(in, {{0, 1, 0, 5}, {0, 1, 5, 5}, {2, 1, 12, 10}}, 18), {false}).valid);
  EXPECT_TRUE(check(in, planned(in, {{0, 1, 0, 5}, {0, 1, 6, 5}, {2, 1, 12, 10}}, 18)).valid);
}

TEST(Check, RejectsPiecesOfNoMessageAndBadFields) {
  const Instance in = two_messages();
  EXPECT_FALSE(check(in, planned(in, {{1, 0, 0, 10}}, 11), {false}).valid);
  EXPECT_FALSE(check(in, planned(in, {{0, 1, -1, 10}, {2, 1, 11, 10}}, 16), {false}).valid);
  EXPECT_FALSE(check(in, planned(in, {{0, 3, 0, 10}}, 11), {false}).valid);
  EXPECT_FALSE(check(in, planned(in, {{0, 0, 0, 10}}, 11), {false}).valid);
}

TEST(Check, RejectsWrongClaims) {
  const Instance in = two_messages();
  Plan p = planned(in, {{0, 1, 0, 10}, {2, 1, 11, 10}}, 16);
  EXPECT_FALSE(check(in, p).valid);  // the pieces end at 17
  p.makespan = 17;
  p.lower_bound = 18;
  EXPECT_FALSE(check(in, p).valid);
  p.lower_bound = 12;
  p.optimal = true;
  EXPECT_FALSE(check(in, p).valid);
}

TEST(Check, RejectsMoreCrossingPiecesThanTheBackboneCarries) {
  Instance in;
  in.nodes = 4;
  in.messages = {{0, 2, 1}, {1, 3, 1}};
  in.send_bandwidth.assign(4, 1.0);
  in.recv_bandwidth.assign(4, 1.0);
  in.backbone = Backbone{{std::vector<std::int64_t>{0, 1}, std::vector<std::int64_t>{2, 3}}, 1};
  EXPECT_FALSE(check(in, planned(in, {{0, 2, 0, 1}, {1, 3, 0, 1}}, 1)).valid);
  EXPECT_TRUE(check(in, planned(in, {{0, 2, 0, 1}, {1, 3, 1, 1}}, 2)).valid);
  in.backbone->transfers = 2;
  EXPECT_TRUE(check(in, planned(in, {{0, 2, 0, 1}, {1, 3, 0, 1}}, 1)).valid);
}

// The typed verdict names the pieces the first violation is about (what check --gantt outlines).
TEST(Check, NamesThePiecesOfTheViolation) {
  const Instance in = two_messages();
  using Entries = std::vector<std::size_t>;
  EXPECT_EQ(check(in, planned(in, {{0, 1, 0, 10}, {2, 1, 10.5, 10}}, 16.5)).entries,
            (Entries{0, 1}));
  EXPECT_EQ(check(in, planned(in, {{2, 1, 12, 10}, {0, 1, 0, 9}}, 18), {false}).entries,
            (Entries{1}));  // message 0's only piece delivers 9 of 10 bytes
  EXPECT_EQ(
      check(in, planned(in, {{0, 1, 0, 6}, {2, 1, 11, 10}, {0, 1, 12, 6}}, 19), {false}).entries,
      (Entries{0, 2}));  // message 0's two pieces deliver 12
  EXPECT_EQ(check(in, planned(in, {{0, 1, 0, 10}, {1, 0, 20, 10}}, 31), {false}).entries,
            (Entries{1}));  // no message from 1 to 0
  EXPECT_EQ(check(in, planned(in, {{0, 1, 0, 10}, {2, 1, -1, 10}}, 11), {false}).entries,
            (Entries{1}));
  EXPECT_TRUE(check(in, planned(in, {{0, 1, 0, 10}, {2, 1, 11, 10}}, 16)).entries.empty());
  EXPECT_TRUE(check(in, planned(in, {{2, 1, 0, 10}}, 6), {false}).entries.empty());  // 0 -> 1
}

TEST(Check, NamesTheCrossingPiecesRunningWhenTheBackboneIsExceeded) {
  Instance in;
  in.nodes = 6;
  in.messages = {{0, 3, 2}, {1, 4, 1}, {2, 5, 1}, {0, 1, 1}};
  in.send_bandwidth.assign(6, 1.0);
  in.recv_bandwidth.assign(6, 1.0);
  in.backbone =
      Backbone{{std::vector<std::int64_t>{0, 1, 2}, std::vector<std::int64_t>{3, 4, 5}}, 2};
  // Pieces 1 and 2 cross at [0, 1) and [0.5, 1.5); piece 3 crosses from 0.75 on: three at once.
  // Piece 0 stays inside the first cluster, piece 4 crosses after the others.
  const CheckResult r = check(
      in,
      planned(in, {{0, 1, 2, 1}, {1, 4, 0, 1}, {2, 5, 0.5, 1}, {0, 3, 0.75, 1}, {0, 3, 3, 1}}, 4),
      {false});
  ASSERT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("3 crossing pieces run at once"), std::string::npos) << r.reason;
  EXPECT_EQ(r.entries, (std::vector<std::size_t>{1, 2, 3}));
}

Instance uniform(std::size_t nodes, std::vector<Message> messages, double bandwidth) {
  Instance in;
  in.nodes = nodes;
  in.messages = std::move(messages);
  in.send_bandwidth.assign(nodes, bandwidth);
  in.recv_bandwidth.assign(nodes, bandwidth);
  return in;
}

// Overlaps of 1,000 s at time 0 used to pass when one piece far in the future made the makespan,
// and so the tolerance, huge.
TEST(Check, AFarAwayPieceHidesNoOverlap) {
  const Instance in =
      uniform(4, {{0, 1, 1000}, {0, 2, 1000}, {0, 3, 1000}, {1, 0, 5}, {2, 0, 5}}, 1);
  std::vector<Piece> pieces = {
      {0, 1, 0, 1000}, {0, 2, 0, 1000}, {0, 3, 0, 999}, {1, 0, 0, 5}, {2, 0, 0, 5}};
  EXPECT_FALSE(check(in, planned(in, pieces, 1000), {false}).valid);
  // The one byte left, at the latest start the horizon allows (every piece one after the other).
  const double latest = horizon(in, 6);
  EXPECT_DOUBLE_EQ(latest, 3010.0);
  pieces.push_back({0, 3, latest, 1});
  const CheckResult r = check(in, planned(in, pieces, latest + 1), {false});
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("overlap on the send port of node 0"), std::string::npos) << r.reason;
  // Beyond the horizon, refused as such.
  pieces.back().start = 1e300;
  const CheckResult far = check(in, planned(in, pieces, 1e300), {false});
  EXPECT_FALSE(far.valid);
  EXPECT_NE(far.reason.find("after the horizon"), std::string::npos) << far.reason;
  EXPECT_EQ(far.entries, std::vector<std::size_t>{5});
}

// 100,000 one-byte pieces of one second, each starting before the previous one ends by 0.9 of
// the tolerance of that end: every overlap is within its allowance, but together they save 4.5 s,
// which would put the plan below the ports' bound.
TEST(Check, OverlapsWithinTheToleranceDoNotAddUp) {
  const Instance in = uniform(2, {{0, 1, 100000}}, 1);
  std::vector<Piece> pieces;
  double start = 0;
  for (int k = 0; k < 100000; ++k) {
    pieces.push_back({0, 1, start, 1});
    start += 1 - 0.9 * kTimeTolerance * (start + 1);
  }
  const double end = pieces.back().start + 1;
  EXPECT_LT(end, 100000 - 4);
  const CheckResult r = check(in, planned(in, pieces, end), {false});
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("take 100000 seconds in all, more than"), std::string::npos) << r.reason;
  // Without the overlaps: valid.
  for (int k = 0; k < 100000; ++k) pieces[static_cast<std::size_t>(k)].start = k;
  EXPECT_TRUE(check(in, planned(in, pieces, 100000)).valid);
}

// Two pieces at time 0 on node 0's send port, one of 10^6 s and one of 10^-4 s: an overlap in
// either order (a tolerance taken from the makespan, 10^-3 s, used to pass one of the orders).
TEST(Check, TheVerdictDoesNotDependOnTheOrderOfThePieces) {
  Instance in = uniform(3, {{0, 1, 1000000}, {0, 2, 1}}, 1);
  in.send_bandwidth = {10000, 1, 1};
  in.recv_bandwidth = {1, 1, 10000};
  const Piece big{0, 1, 0, 1000000}, small{0, 2, 0, 1};
  EXPECT_FALSE(check(in, planned(in, {big, small}, 1e6), {false}).valid);
  EXPECT_FALSE(check(in, planned(in, {small, big}, 1e6), {false}).valid);
  // One after the other: valid in either order.
  const Piece later{0, 2, 1e6, 1};
  EXPECT_TRUE(check(in, planned(in, {big, later}, 1e6 + 1e-4)).valid);
  EXPECT_TRUE(check(in, planned(in, {later, big}, 1e6 + 1e-4)).valid);
}

// Every plan of every planner gets the same verdict, reversed and shuffled.
TEST(Check, EveryPlannersPlanGetsOneVerdictInAnyOrder) {
  std::mt19937_64 rng(41);
  testkit::RandomExchangeOptions o;
  int compared = 0;
  for (int trial = 0; trial < testkit::random_cases(400); ++trial) {
    o.latency = trial % 2 ? 0.25 : 0.0;
    const Instance in = testkit::random_exchange(rng, o);
    for (const auto& a : kAlgorithms) {
      if (a.name == "exact" && in.messages.size() > 4) continue;
      Plan p;
      try {
        p = plan(in, a.name);
      } catch (const OptionError&) {
        continue;  // exact: the latency too small next to the transfers to search
      }
      const bool valid = check(in, p).valid;
      EXPECT_TRUE(valid) << a.name << " trial " << trial;
      Plan reversed = p, shuffled = p;
      std::reverse(reversed.pieces.begin(), reversed.pieces.end());
      std::shuffle(shuffled.pieces.begin(), shuffled.pieces.end(), rng);
      EXPECT_EQ(check(in, reversed).valid, valid) << a.name << " trial " << trial;
      EXPECT_EQ(check(in, shuffled).valid, valid) << a.name << " trial " << trial;
      ++compared;
    }
  }
  EXPECT_GE(compared, testkit::random_cases(400) * 8);
}

// Mutations of valid plans: moving a piece onto a busy port, dropping bytes, or charging no
// latency must all be caught.
TEST(Check, RejectsMutatedPlansOfEveryAlgorithm) {
  std::mt19937_64 rng(37);
  testkit::RandomExchangeOptions o;
  o.latency = 0.25;
  int rejected = 0, mutated = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Instance in = testkit::random_exchange(rng, o);
    for (const auto& a : kAlgorithms) {
      if (a.name == "exact" && in.messages.size() > 4) continue;  // tiny instances only
      Plan p;
      try {
        p = plan(in, a.name);
      } catch (const OptionError&) {
        ASSERT_EQ(a.name, "exact");  // the latency too small next to the transfers to search
        continue;
      }
      ASSERT_TRUE(check(in, p).valid) << a.name << " trial " << trial;
      if (p.pieces.size() < 2) continue;
      const std::size_t k = rng() % p.pieces.size();
      Plan missing = p;
      missing.pieces[k].bytes *= 0.5;
      ++mutated;
      rejected += !check(in, missing, {false, false, false}).valid;
      Plan shifted = p;  // the piece starts with another piece of its sender
      for (const Piece& q : p.pieces) {
        if (q.from == p.pieces[k].from && q.start != p.pieces[k].start) {
          shifted.pieces[k].start = q.start;
          ++mutated;
          rejected += !check(in, shifted, {false, false, false}).valid;
          break;
        }
      }
    }
  }
  EXPECT_EQ(rejected, mutated);
}

}  // namespace
}  // namespace redist::exchange
