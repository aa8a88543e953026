// Tests of the ring validator (validate.hpp), in sections: valid schedules; the one-port rule;
// holding (no processor sends items it does not hold yet); the final loads, flows and makespan
// fields; the fields of a run; the allowance of the times compared; and huge counts (the cost must
// not grow with item counts). The randomized comparison with an item-by-item checker is in
// validate_random_test.cpp.
#include "redist/ring/validate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/ring/planner.hpp"
#include "redist/ring/validate_test.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::ring {
namespace {

using namespace validate_testing;

// ---------------------------------------------------------------------------------------------
// Valid schedules.

// The example of docs/formats.md.
TEST(ValidateSchedule, SpecExampleIsValid) {
  const Instance in = bidirectional({5, 1, 3, 7}, {4, 4, 4, 4}, {1, 2, 1, 1}, {1.5, 1.5, 1.5, 1.5});
  const StatedSchedule s =
      schedule({run(0, kNext, 0, 3), run(3, kNext, 0, 2), run(3, kPrev, 2, 1)}, 3.5, {3, 0, -1, 2});
  const CheckResult r = check(in, s);
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 3.5);
  EXPECT_TRUE(r.reason.empty());
}

TEST(ValidateSchedule, EmptyScheduleIsValidWhenBalanced) {
  const Instance in = unidirectional({2, 3}, {2, 3}, {1, 1});
  const CheckResult r = check(in, schedule({}, 0.0));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_EQ(r.makespan, 0.0);
}

TEST(ValidateSchedule, PeriodicRunsGiveTheirMakespan) {
  // 0 -> 1 every 3 time units (cost 1): items leave at 0, 3, 6 and the last arrives at 7.
  // 1 forwards each item at its arrival over a link of cost 2: leaves at 1, 4, 7, ends at 9.
  const Instance in = unidirectional({3, 0, 0}, {0, 0, 3}, {1, 2, 1});
  const CheckResult r =
      check(in, schedule({run(0, kNext, 0, 3, 3.0), run(1, kNext, 1, 3, 3.0)}, 9.0));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 9.0);
}

TEST(ValidateSchedule, TouchingSpansOnOnePortAreAccepted) {
  // Send port of 0: [0, 2) then [2, 3.5) in the other direction.
  const Instance in = bidirectional({3, 0, 0}, {0, 2, 1}, {1, 1, 1}, {1.5, 1.5, 1.5});
  const CheckResult r = check(in, schedule({run(0, kNext, 0, 2), run(0, kPrev, 2, 1)}));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 3.5);
}

TEST(ValidateSchedule, ZeroCountRunsAreIgnored) {
  // The count-0 run would overlap the other one on the send port and send an item not held.
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  const CheckResult r =
      check(in, schedule({run(0, kNext, 0, 1), run(0, kNext, 0.5, 0), run(1, kNext, 0, 0)}));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 1.0);
}

TEST(ValidateSchedule, ZeroCountRunsStillNeedAValidProcessor) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 1), run(2, kNext, 0, 0)}),
                 "transfers[1]:", "processor 2 does not exist");
}

// ---------------------------------------------------------------------------------------------
// One-port.

TEST(ValidateSchedule, RejectsOverlappingSendsInOneDirection) {
  const Instance in = unidirectional({4, 0, 0}, {0, 4, 0}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2), run(0, kNext, 1.5, 2)}), "transfers[1]:",
                 "send port of processor 0 is still busy with transfers[0] at time 1.5");
}

TEST(ValidateSchedule, NamesTheConflictingTransfersAsEntries) {
  const Instance in = unidirectional({4, 0, 0}, {0, 4, 0}, {1, 1, 1});
  const CheckResult overlap = check(in, schedule({run(0, kNext, 0, 2), run(0, kNext, 1.5, 2)}));
  EXPECT_EQ(overlap.entries, (std::vector<std::size_t>{1, 0})) << overlap.reason;
  const CheckResult late = check(in, schedule({run(0, kNext, 0, 4), run(1, kNext, 0.5, 1)}));
  ASSERT_FALSE(late.valid);
  EXPECT_EQ(late.entries, (std::vector<std::size_t>{1})) << late.reason;  // not held yet
  const CheckResult field = check(in, schedule({run(0, kNext, 0, 4), run(0, kNext, -1, 0)}));
  EXPECT_EQ(field.entries, (std::vector<std::size_t>{1})) << field.reason;  // a negative start
  const CheckResult loads = check(in, schedule({run(0, kNext, 0, 3)}));
  ASSERT_FALSE(loads.valid);
  EXPECT_TRUE(loads.entries.empty()) << loads.reason;  // a final load: no transfer in particular
}

TEST(ValidateSchedule, RejectsOverlappingSendsInBothDirections) {
  const Instance in = bidirectional({4, 0, 0}, {0, 2, 2}, {1, 1, 1}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2), run(0, kPrev, 1, 2)}),
                 "transfers[1]:", "send port of processor 0");
}

TEST(ValidateSchedule, RejectsOverlappingReceivesFromBothSides) {
  // 1 receives from 0 (next) during [0, 2) and from 2 (prev) during [1.5, 2.5).
  const Instance in = bidirectional({2, 0, 1}, {0, 3, 0}, {1, 1, 1}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2), run(2, kPrev, 1.5, 1)}),
                 "transfers[1]:", "receive port of processor 1 is still busy with transfers[0]");
}

TEST(ValidateSchedule, ReportsTheEarliestPortConflict) {
  // Transfers 0/1 conflict at time 5, transfers 2/3 at time 1: the latter is reported.
  const Instance in = unidirectional({4, 4, 0, 0}, {0, 0, 4, 4}, {1, 1, 1, 1});
  const StatedSchedule s = schedule(
      {run(1, kNext, 3, 3), run(1, kNext, 5, 1), run(0, kNext, 0, 2), run(0, kNext, 1, 1)});
  expect_invalid(in, s, "transfers[3]:", "at time 1");
}

TEST(ValidateSchedule, TwoProcessorsMayUseBothLinksConcurrently) {
  // n = 2: 0 sends to 1 over "next" while 1 sends to 0 over "next": different ports.
  const Instance in = bidirectional({3, 3}, {3, 3}, {1, 2}, {1, 1});
  const CheckResult r = check(in, schedule({run(0, kNext, 0, 3), run(1, kNext, 0, 3)}));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 6.0);
  // Same with 1 using its "prev" link to 0, which is again another link.
  const CheckResult r2 = check(in, schedule({run(0, kNext, 0, 3), run(1, kPrev, 0, 3)}));
  EXPECT_TRUE(r2.valid) << r2.reason;
  EXPECT_DOUBLE_EQ(r2.makespan, 3.0);
}

TEST(ValidateSchedule, TwoProcessorsOneSenderCannotUseBothLinksAtOnce) {
  const Instance in = bidirectional({4, 0}, {0, 4}, {1, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2), run(0, kPrev, 0, 2)}),
                 "transfers[1]:", "send port of processor 0");
  // Back to back is fine.
  const CheckResult r = check(in, schedule({run(0, kNext, 0, 2), run(0, kPrev, 2, 2)}, 4.0));
  EXPECT_TRUE(r.valid) << r.reason;
}

// ---------------------------------------------------------------------------------------------
// Holding.

TEST(ValidateSchedule, RejectsARelayForwardingBeforeReceiving) {
  // 1 holds nothing; its item arrives at 1 but it forwards at 0.5.
  const Instance in = unidirectional({1, 0, 0}, {0, 0, 1}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 1), run(1, kNext, 0.5, 1)}),
                 "transfers[1]:", "processor 1 sends an item it does not hold at time 0.5");
}

TEST(ValidateSchedule, AcceptsForwardingAtTheArrivalTime) {
  const Instance in = unidirectional({2, 0, 0}, {0, 0, 2}, {1, 1, 1});
  const CheckResult r = check(in, schedule({run(0, kNext, 0, 2), run(1, kNext, 1, 2)}, 3.0));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 3.0);
}

TEST(ValidateSchedule, AcceptsForwardingWithinTheTolerance) {
  // Arrival at 1000, forwarded 1e-12 earlier: within 1e-9 of the arrival time.
  const Instance in = unidirectional({1, 0, 0}, {0, 0, 1}, {1000, 1, 1});
  const CheckResult r = check(in, schedule({run(0, kNext, 0, 1), run(1, kNext, 1000 - 1e-12, 1)}));
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_NEAR(r.makespan, 1001.0, 1e-9);
  // 1e-3 earlier is well beyond the tolerance (1e-6).
  expect_invalid(in, schedule({run(0, kNext, 0, 1), run(1, kNext, 1000 - 1e-3, 1)}),
                 "transfers[1]:", "does not hold");
}

TEST(ValidateSchedule, RejectsForwardingFasterThanReceiving) {
  // Arrivals at 1, 3, 5, 7 (period 2); forwarding back to back from 1 leaves at 1, 2, 3, 4:
  // the second item leaves at 2 before it arrives at 3.
  const Instance in = unidirectional({4, 0, 0}, {0, 0, 4}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 4, 2.0), run(1, kNext, 1, 4)}),
                 "transfers[1]:", "processor 1 sends an item it does not hold at time 2");
  // Forwarding at the pace of the arrivals is fine; so is starting late enough back to back.
  EXPECT_TRUE(check(in, schedule({run(0, kNext, 0, 4, 2.0), run(1, kNext, 1, 4, 2.0)})).valid);
  EXPECT_TRUE(check(in, schedule({run(0, kNext, 0, 4, 2.0), run(1, kNext, 4, 4)})).valid);
  expect_invalid(in, schedule({run(0, kNext, 0, 4, 2.0), run(1, kNext, 3.5, 4)}),
                 "transfers[1]:", "at time 6.5");
}

TEST(ValidateSchedule, RelayUsesItsOwnLoadFirst) {
  // 1 holds 2 items: it can send 3 back to back from 0 when one item arrives by time 2.
  const Instance in = unidirectional({1, 2, 0}, {0, 0, 3}, {2, 1, 1});
  EXPECT_TRUE(check(in, schedule({run(0, kNext, 0, 1), run(1, kNext, 0, 3)})).valid);
  const Instance slow = unidirectional({1, 2, 0}, {0, 0, 3}, {2.5, 1, 1});
  expect_invalid(slow, schedule({run(0, kNext, 0, 1), run(1, kNext, 0, 3)}),
                 "transfers[1]:", "at time 2");
}

TEST(ValidateSchedule, RejectsSendingMoreThanEverHeld) {
  const Instance in = unidirectional({1, 1}, {1, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2)}),
                 "transfers[0]:", "processor 0 sends an item it does not hold at time 1");
}

TEST(ValidateSchedule, ReportsTheEarliestHoldingViolation) {
  // 3 (transfers[0], holding nothing) goes wrong at time 4, 1 (transfers[2]) at time 0.5 (the
  // link from 3 costs 2, so that the horizon, the sum of the runs' spans, reaches 4).
  const Instance in = unidirectional({1, 0, 1, 0}, {0, 0, 1, 1}, {1, 1, 1, 2});
  const StatedSchedule s =
      schedule({run(3, kNext, 4, 1), run(0, kNext, 0, 1), run(1, kNext, 0.5, 1)});
  expect_invalid(in, s, "transfers[2]:", "processor 1 sends an item it does not hold at time 0.5");
}

// ---------------------------------------------------------------------------------------------
// Final loads, flows and makespan fields.

TEST(ValidateSchedule, RejectsWrongFinalLoads) {
  const Instance in = unidirectional({3, 0, 0}, {1, 1, 1}, {1, 1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 2)}), "processor 1 ends with 2 items",
                 "its target is 1");
}

TEST(ValidateSchedule, ChecksTheFlowsField) {
  const Instance in = bidirectional({3, 0, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1});
  const std::vector<ring::Run> runs = {run(0, kNext, 0, 1), run(0, kPrev, 1, 1)};
  EXPECT_TRUE(check(in, schedule(runs, -1, {1, 0, -1})).valid);
  expect_invalid(in, schedule(runs, -1, {1, 0, 1}), "flows[2] is 1", "the transfers move -1 items");
  expect_invalid(in, schedule(runs, -1, {1, 0}), "flows has 2 entries", "3 processors");
}

TEST(ValidateSchedule, ChecksTheMakespanField) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {1.5, 1});
  const std::vector<ring::Run> runs = {run(0, kNext, 1, 3)};  // ends at 5.5
  EXPECT_TRUE(check(in, schedule(runs, 5.5)).valid);
  EXPECT_TRUE(check(in, schedule(runs, 5.5 * (1 + 1e-12))).valid);
  EXPECT_TRUE(check(in, schedule(runs, -1.0)).valid);  // absent
  expect_invalid(in, schedule(runs, 5.0), "makespan 5 differs", "recomputed makespan 5.5");
  expect_invalid(in, schedule(runs, 5.5 * (1 + 1e-8)), "makespan", "5.5");
}

// Two runs on one receive port starting together: the short one ends within the tolerance of
// the makespan, and was accepted when listed first, refused when listed second.
TEST(StrictCheck, PortConflictVerdictDoesNotDependOnTheOrderOfTheTransfers) {
  const Instance in = bidirectional(
      {0, 2'000'000'000'008, 0}, {1'000'000'000'000, 0, 1'000'000'000'008}, {1, 1, 1}, {1, 1, 1});
  const ring::Run long_run = run(1, kPrev, 0, 1'000'000'000'000);
  const ring::Run short_run = run(1, kNext, 0, 8);
  const ring::Run rest = run(1, kNext, 1'000'000'000'000, 1'000'000'000'000);
  for (const auto& runs : {std::vector<ring::Run>{long_run, short_run, rest},
                           std::vector<ring::Run>{short_run, long_run, rest}}) {
    const CheckResult r = check(in, schedule(runs));
    EXPECT_FALSE(r.valid);
    EXPECT_NE(r.reason.find("send port of processor 1"), std::string::npos) << r.reason;
  }
}

// A stated negative makespan used to be read as "absent" and an empty flows array as "no flows";
// both are stated values and wrong.
TEST(StrictCheck, StatedNegativeMakespanAndEmptyFlowsAreInvalid) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {1.5, 1});
  StatedSchedule s = schedule({run(0, kNext, 1, 3)});
  s.schedule.makespan = -5.5;
  s.stated.makespan = true;
  expect_invalid(in, s, "makespan -5.5 differs", "recomputed makespan 5.5");
  s.schedule.makespan = 5.5;
  s.stated.flows = true;  // and empty
  expect_invalid(in, s, "flows has 0 entries", "2 processors");
  s.schedule.flows = {3, 0};
  EXPECT_TRUE(check(in, s).valid);
}

// A planner's lower_bound above its makespan, or optimal with the makespan above the bound, is a
// wrong claim; a document's bound claims are not judged.
TEST(StrictCheck, APlannersBoundClaimsAreCompared) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {1.5, 1});
  StatedSchedule s = schedule({run(0, kNext, 1, 3)}, 5.5);
  s.schedule.lower_bound = 6.0;
  expect_invalid(in, s, "lower_bound 6 exceeds", "recomputed makespan 5.5");
  s.schedule.lower_bound = 5.0;
  s.schedule.prove_optimal(Proof::lower_bound);
  expect_invalid(in, s, "optimal is claimed", "above the lower_bound 5");
  s.schedule.lower_bound = 5.5;
  EXPECT_TRUE(check(in, s).valid);
  s.schedule.lower_bound = 6.0;
  s.stated.bound_claims = false;
  EXPECT_TRUE(check(in, s).valid);
}

// ---------------------------------------------------------------------------------------------
// Fields of a run.

TEST(ValidateSchedule, RejectsAPeriodShorterThanTheLinkCost) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {2, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 3, 1.5)}),
                 "transfers[0]:", "period 1.5 is shorter than the link cost 2");
  EXPECT_TRUE(check(in, schedule({run(0, kNext, 0, 3, 2.0)}, 6.0)).valid);
}

TEST(ValidateSchedule, RejectsNonPositivePeriods) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {2, 1});
  // The reader stores an explicit non-positive period as -1.
  expect_invalid(in, schedule({run(0, kNext, 0, 3, -1.0)}), "transfers[0]:", "period must be");
  expect_invalid(in, schedule({run(0, kNext, 0, 3, std::numeric_limits<double>::infinity())}),
                 "transfers[0]:", "period must be");
}

TEST(ValidateSchedule, RejectsUnknownProcessors) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  expect_invalid(in, schedule({run(2, kNext, 0, 1)}),
                 "transfers[0]:", "processor 2 does not exist");
  expect_invalid(in, schedule({run(0, kNext, 0, 1), run(-1, kNext, 0, 1)}),
                 "transfers[1]:", "processor -1 does not exist");
}

TEST(ValidateSchedule, RejectsUnknownDirections) {
  const Instance in = bidirectional({1, 0}, {0, 1}, {1, 1}, {1, 1});
  StatedSchedule s = schedule({run(0, Direction::next, 0, 1)});
  s.stated.unknown_directions = {0};
  expect_invalid(in, s, "transfers[0]:", "unknown direction");
}

TEST(ValidateSchedule, RejectsPrevOnAUnidirectionalRing) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kPrev, 0, 1)}),
                 "transfers[0]:", "direction prev on a unidirectional ring");
}

TEST(ValidateSchedule, RejectsNegativeOrNonFiniteStarts) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, -0.5, 1)}), "transfers[0]:", "start -0.5 is negative");
  expect_invalid(in, schedule({run(0, kNext, std::nan(""), 1)}),
                 "transfers[0]:", "start is not finite");
}

TEST(ValidateSchedule, RejectsNegativeCounts) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 1), run(1, kNext, 0, -1)}),
                 "transfers[1]:", "count -1 is negative");
}

TEST(ValidateSchedule, RejectsRunsEndingAtInfinity) {
  const Instance in = unidirectional({3, 0}, {0, 3}, {1, 1});
  expect_invalid(in, schedule({run(0, kNext, 0, 3, 1e308)}), "transfers[0]:", "non-finite time");
}

TEST(ValidateSchedule, RejectsInvalidInstances) {
  const Instance in = unidirectional({1, 0}, {0, 1}, {1});  // cost_next too short
  EXPECT_THROW(check(in, schedule({})), InputError);
}

// ---------------------------------------------------------------------------------------------
// The allowance of the times compared, the busy time of a port and the horizon.

// Processor 0 sends 10^6 items to 1 from time 0; processor 2 sends two items to 0, overlapping by
// 5e-4 s at time 1. A tolerance of the makespan (1e-3 s) used to hide the overlap, and a run far
// in the future would hide larger ones.
TEST(StrictCheck, ALongOrFarAwayRunHidesNoOverlap) {
  const Instance in = unidirectional({1'000'000, 0, 2}, {2, 999'999, 1}, {1, 1, 1});
  std::vector<ring::Run> runs = {run(0, kNext, 0, 1'000'000), run(2, kNext, 0, 1),
                                 run(2, kNext, 0.9995, 1), run(1, kNext, 1, 1)};
  expect_invalid(in, schedule(runs), "transfers[2]: the send port of processor 2",
                 "busy with transfers[1] at time 0.9995");
  runs.back().start = 900'000;  // within the horizon, the sum of the runs' spans
  expect_invalid(in, schedule(runs), "transfers[2]: the send port of processor 2",
                 "busy with transfers[1] at time 0.9995");
  runs.back().start = 1e300;
  expect_invalid(in, schedule(runs), "transfers[3]: start 1e+300 is after the horizon 1000003",
                 "one after the other");
  runs[2].start = 1;
  runs.back().start = 900'000;
  EXPECT_TRUE(check(in, schedule(runs)).valid);
}

// Processor 1 forwards an item 5e-4 s before it arrives, beside a run of 10^6 items: the holding
// rule used to accept it within 1e-9 of the makespan.
TEST(StrictCheck, HoldingIsJudgedRelativeToTheArrival) {
  const Instance in = unidirectional({1'000'001, 0, 0}, {0, 1'000'000, 1}, {1, 1, 1});
  std::vector<ring::Run> runs = {run(0, kNext, 0, 1), run(1, kNext, 0.9995, 1),
                                 run(0, kNext, 1, 1'000'000)};
  expect_invalid(in, schedule(runs),
                 "transfers[1]:", "processor 1 sends an item it does not hold at time 0.9995");
  runs[1].start = 1;
  EXPECT_TRUE(check(in, schedule(runs)).valid);
}

// 100,000 runs of one item of one second, each starting before the previous one ends by 0.9 of the
// allowance of that end: every overlap is within it, but together they save 4.5 s.
TEST(StrictCheck, OverlapsWithinTheToleranceDoNotAddUp) {
  const std::int64_t n = 100'000;
  const Instance in = unidirectional({n, 0}, {0, n}, {1, 1});
  std::vector<ring::Run> runs;
  double start = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    runs.push_back(run(0, kNext, start, 1));
    start += 1 - 0.9 * kTimeTolerance * (start + 1);
  }
  EXPECT_LT(runs.back().start + 1, static_cast<double>(n) - 4);
  expect_invalid(in, schedule(runs), "the runs on the send port of processor 0 take 100000 in all",
                 "they cover: they overlap");
  for (std::int64_t k = 0; k < n; ++k) runs[static_cast<std::size_t>(k)].start = k;
  EXPECT_TRUE(check(in, schedule(runs)).valid);
}

bool applies(const std::string& algorithm, const Instance& in) {
  if (algorithm == "unidirectional") return !in.bidirectional;
  if (algorithm == "bidirectional-homogeneous") return in.bidirectional && in.homogeneous();
  if (algorithm == "light" || algorithm == "light-enforced") return in.bidirectional;
  if (algorithm == "exact") return in.size() <= 4;
  return true;
}

// The verdicts on `s` reversed and shuffled equal `valid`.
void expect_one_verdict(const Instance& in, const Schedule& s, bool valid, std::mt19937_64& rng,
                        const std::string& what) {
  Schedule reversed = s, shuffled = s;
  std::reverse(reversed.transfers.begin(), reversed.transfers.end());
  std::shuffle(shuffled.transfers.begin(), shuffled.transfers.end(), rng);
  EXPECT_EQ(ring::check(in, reversed).valid, valid) << what;
  EXPECT_EQ(ring::check(in, shuffled).valid, valid) << what;
}

// Every schedule of every algorithm is valid, and gets the same verdict reversed and shuffled; so
// does each with one run moved earlier (often onto a busy port, or before its items arrive).
TEST(StrictCheck, EveryPlannersScheduleGetsOneVerdictInAnyOrder) {
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> unit(0, 1);
  int compared = 0, invalid = 0, exact = 0;
  for (int trial = 0; trial < testkit::random_cases(300); ++trial) {
    testkit::RandomRingOptions o;
    o.bidirectional = trial % 3 != 0;
    o.homogeneous = trial % 3 == 1;
    o.load_min = o.target_min = trial % 2;
    o.n_max = trial % 4 == 0 ? 4 : 12;
    o.load_max = trial % 4 == 0 ? 3 : 50;
    Instance in = testkit::random_ring(rng, o);
    if (trial % 4 == 0) {  // costs in tenths, which exact can scale to integers
      for (double& c : in.cost_next) c = std::round(c * 10) / 10;
      for (double& c : in.cost_prev) c = std::round(c * 10) / 10;
    }
    for (const auto& [algorithm, description] : ring_algorithm_names()) {
      if (!applies(algorithm, in)) continue;
      const std::string what = algorithm + ", trial " + std::to_string(trial);
      Schedule s;
      try {
        s = plan(in, {algorithm});
      } catch (const InputError& e) {
        ASSERT_EQ(algorithm, "exact") << e.what();  // only exact may refuse (costs it cannot scale)
        continue;
      }
      exact += algorithm == "exact";
      const CheckResult v = ring::check(in, s);
      EXPECT_TRUE(v.valid) << what << ": " << v.reason;
      expect_one_verdict(in, s, v.valid, rng, what);
      Schedule moved = s;
      if (!moved.transfers.empty()) {
        ring::Run& r = moved.transfers[rng() % moved.transfers.size()];
        const double c = in.cost(static_cast<std::size_t>(r.from), r.dir);
        r.start = std::max(0.0, r.start - 2 * unit(rng) * c);
      }
      const bool moved_valid = ring::check(in, moved).valid;
      invalid += !moved_valid;
      expect_one_verdict(in, moved, moved_valid, rng, what + ", one run moved");
      ++compared;
    }
  }
  EXPECT_GE(compared, testkit::random_cases(300) * 3);
  EXPECT_GE(exact, testkit::random_cases(300) / 8);
  EXPECT_GE(invalid, testkit::random_cases(300) / 2);  // the moved runs do break schedules
}

// ---------------------------------------------------------------------------------------------
// Huge counts: the cost does not depend on item counts.

TEST(ValidateSchedule, HugeCountsAreCheckedQuickly) {
  constexpr std::int64_t kHuge = 4'000'000'000'000'000'000;
  const Instance in = unidirectional({kHuge, 0, 0}, {0, 0, kHuge}, {1, 1, 1});
  const auto t0 = std::chrono::steady_clock::now();
  const CheckResult r = check(
      in, schedule({run(0, kNext, 0, kHuge), run(1, kNext, 1, kHuge)}, 4e18, {kHuge, kHuge, 0}));
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  EXPECT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 4e18);
  EXPECT_LT(std::chrono::duration<double>(elapsed).count(), 0.1);
}

TEST(ValidateSchedule, HugeCountsRelaySendingOneItemTooMany) {
  constexpr std::int64_t kHuge = 4'000'000'000'000'000'000;
  const Instance in = unidirectional({kHuge, 0, 0}, {1, 0, kHuge - 1}, {1, 1, 1});
  // 1 receives kHuge - 1 items and forwards kHuge: its last item was never received.
  const CheckResult r = check(in, schedule({run(0, kNext, 0, kHuge - 1), run(1, kNext, 1, kHuge)}));
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(starts_with(r.reason, "transfers[1]: processor 1 sends an item it does not hold"))
      << r.reason;
  // Item totals beyond 64 bits: the items go 0 -> 1 -> 0 -> 1 -> 0 -> 1, so 1 receives 1.2e19.
  const Instance two = unidirectional({kHuge, 0}, {0, kHuge}, {1, 1});
  const std::vector<ring::Run> rounds = {run(0, kNext, 0, kHuge), run(1, kNext, 1, kHuge),
                                         run(0, kNext, 4e18, kHuge), run(1, kNext, 4e18 + 1, kHuge),
                                         run(0, kNext, 8e18, kHuge)};
  const CheckResult r2 = check(two, schedule(rounds, 1.2e19));
  EXPECT_TRUE(r2.valid) << r2.reason;
  EXPECT_DOUBLE_EQ(r2.makespan, 1.2e19);
  // flows[0] would be 1.2e19, which no 64-bit flows field can state.
  const CheckResult r3 = check(two, schedule(rounds, 1.2e19, {-1, 2 * kHuge}));
  EXPECT_FALSE(r3.valid);
  EXPECT_EQ(r3.reason,
            "flows[0] is -1, the transfers move 12000000000000000000 items over that link");
}

}  // namespace
}  // namespace redist::ring
