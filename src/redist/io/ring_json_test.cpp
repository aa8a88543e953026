#include "redist/io/ring_json.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::io {
namespace {

// The InputError of reading `text` as a ring instance, as "message (at path)".
std::string error_of(const std::string& text) {
  try {
    read_ring_instance(parse_document(text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string ring_with(const std::string& fields) { return R"({"ring": {)" + fields + "}}"; }

TEST(RingJson, ReadsTheSpecExample) {
  const ring::Instance in = read_ring_instance(parse_document(R"({"ring": {"bidirectional": true,
      "loads": [5, 1, 3, 7], "targets": [4, 4, 4, 4], "cost_next": [1.0, 2.0, 1.0, 1.0],
      "cost_prev": 1.5}})"));
  EXPECT_TRUE(in.bidirectional);
  EXPECT_EQ(in.loads, (std::vector<std::int64_t>{5, 1, 3, 7}));
  EXPECT_EQ(in.cost_prev, (std::vector<double>{1.5, 1.5, 1.5, 1.5}));
  EXPECT_EQ(in.imbalance(3), 3);
}

TEST(RingJson, DeltaReplacesTargets) {
  const ring::Instance in = read_ring_instance(
      parse_document(ring_with(R"("loads": [5, 1], "delta": [2, -2], "cost_next": 1)")));
  EXPECT_EQ(in.targets, (std::vector<std::int64_t>{3, 3}));
  EXPECT_FALSE(in.bidirectional);
}

TEST(RingJson, EveryInputErrorNamesItsPath) {
  const std::string ok_costs = R"("cost_next": 1)";
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 2], "targets": [2, 2], )" + ok_costs)),
            "sum of targets (4) differs from sum of loads (3) (at $.ring.targets)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, -2], "targets": [2, 2], )" + ok_costs)),
            "load must be >= 0 (at $.ring.loads[1])");
  EXPECT_EQ(error_of(ring_with(R"("loads": [3, 1], "targets": [5, -1], )" + ok_costs)),
            "target must be >= 0 (at $.ring.targets[1])");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1.5, 2], "targets": [2, 2], )" + ok_costs)),
            "must be an integer, got 1.5 (at $.ring.loads[0])");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 2.0], "targets": [2, 1], )" + ok_costs)),
            "must be an integer, got 2.0 (at $.ring.loads[1])");
  EXPECT_EQ(error_of(ring_with(R"("loads": ["1", 2], "targets": [2, 1], )" + ok_costs)),
            "must be an integer, got string (at $.ring.loads[0])");
  EXPECT_EQ(
      error_of(ring_with(R"("loads": [9223372036854775807, 1], "targets": [1, 1], )" + ok_costs)),
      "sum of loads overflows 64 bits (at $.ring.loads)");
  EXPECT_EQ(
      error_of(ring_with(R"("loads": [9223372036854775808, 1], "targets": [1, 1], )" + ok_costs)),
      "integer outside the signed 64-bit range (at $.ring.loads[0])");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1e30, 1], "targets": [1, 1], )" + ok_costs)),
            "integer outside the signed 64-bit range (at $.ring.loads[0])");
  EXPECT_EQ(
      error_of(ring_with(
          R"("loads": [4611686018427387904, 4611686018427387903], "targets": [9223372036854775807, 1], )" +
          ok_costs)),
      "sum of targets overflows 64 bits (at $.ring.targets)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1], "targets": [1], )" + ok_costs)),
            "a ring needs at least 2 processors, got 1 (at $.ring.loads)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [], "targets": [], )" + ok_costs)),
            "a ring needs at least 2 processors, got 0 (at $.ring.loads)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 1], "targets": [1, 1, 0], )" + ok_costs)),
            "has 3 entries, loads has 2 (at $.ring.targets)");
}

TEST(RingJson, CostErrors) {
  const std::string counts = R"("loads": [1, 1], "targets": [1, 1], )";
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": 0)")),
            "must be > 0, got 0 (at $.ring.cost_next)");
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": [1, -2.5])")),
            "must be > 0, got -2.5 (at $.ring.cost_next[1])");
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": [1, 1e999])")),
            "must be a finite number (number overflow parsing '1e999') (at $.ring.cost_next[1])");
  const std::string nan = error_of(ring_with(counts + R"("cost_next": [1, NaN])"));
  EXPECT_EQ(nan.rfind("malformed JSON", 0), 0u) << nan;
  EXPECT_NE(nan.find("(at $.ring.cost_next[1])"), std::string::npos) << nan;
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": [1, 2, 3])")),
            "has 3 entries, expected 2 (one per processor) (at $.ring.cost_next)");
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": "fast")")),
            "must be a number or an array of numbers (at $.ring.cost_next)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 1], "targets": [1, 1])")),
            "missing field (at $.ring.cost_next)");
  EXPECT_EQ(error_of(ring_with(counts + R"("bidirectional": true, "cost_next": 1)")),
            "missing field (at $.ring.cost_prev)");
  EXPECT_EQ(error_of(ring_with(counts + R"("cost_next": 1, "cost_prev": 1)")),
            "cost_prev given for a unidirectional ring (set \"bidirectional\": true) (at "
            "$.ring.cost_prev)");
}

TEST(RingJson, WithoutTargetsTheLoadsAreBalancedToTheAverage) {
  // 23 items on 5 processors: 4 each and one more for the first 3.
  const ring::Instance in = read_ring_instance(
      parse_document(R"({"ring": {"loads": [10, 0, 7, 6, 0], "cost_next": 1}})"));
  EXPECT_EQ(in.targets, (std::vector<std::int64_t>{5, 5, 5, 4, 4}));
  const ring::Instance even =
      read_ring_instance(parse_document(R"({"ring": {"loads": [3, 1], "cost_next": 1}})"));
  EXPECT_EQ(even.targets, (std::vector<std::int64_t>{2, 2}));
}

TEST(RingJson, DocumentErrors) {
  EXPECT_EQ(error_of(R"({"ring": {"loads": [1, 1],)").rfind("malformed JSON: ", 0), 0u);
  EXPECT_EQ(error_of("[1, 2]"), "must be an object, got array (at $)");
  EXPECT_EQ(error_of("{}"), "missing field (at $.ring)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 1], "targets": [1, 1], "cost_nxt": 1)")),
            "unknown field (did you mean 'cost_next'?) (at $.ring.cost_nxt)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 1], "delta": [1, 0], "cost_next": 1)")),
            "imbalances must sum to 0 (at $.ring.delta)");
  EXPECT_EQ(error_of(ring_with(R"("loads": [1, 1], "delta": [2, -2], "cost_next": 1)")),
            "delta 2 exceeds the load 1 (at $.ring.delta[0])");
  EXPECT_EQ(error_of(ring_with(
                R"("bidirectional": 1, "loads": [1, 1], "targets": [1, 1], "cost_next": 1)")),
            "must be true or false, got an integer (at $.ring.bidirectional)");
}

TEST(RingJson, ScheduleRoundTrip) {
  ring::Schedule s;
  s.algorithm = "unidirectional";
  s.makespan = 3.5;
  s.lower_bound = 3.5;
  s.prove_optimal(Proof::lower_bound);
  s.flows = {3, 0, -1, 2};
  s.transfers = {{0, ring::Direction::next, 0.0, 3, 0.0}, {3, ring::Direction::prev, 2.0, 1, 2.5}};
  const ring::Schedule back = read_ring_schedule(ring_schedule_json(s)).schedule;
  EXPECT_EQ(back.algorithm, s.algorithm);
  EXPECT_EQ(back.makespan, 3.5);
  EXPECT_EQ(back.flows, s.flows);
  ASSERT_EQ(back.transfers.size(), 2u);
  EXPECT_EQ(back.transfers[1].dir, ring::Direction::prev);
  EXPECT_EQ(back.transfers[1].period, 2.5);
  EXPECT_EQ(back.transfers[0].period, 0.0);
  // The text is plain JSON for any other reader, and integral times keep a ".0".
  const Json parsed = Json::parse(ring_schedule_json(s));
  EXPECT_EQ(parsed["transfers"][0]["start"].dump(), "0.0");
  EXPECT_TRUE(parsed["optimal"].get<bool>());
  EXPECT_EQ(json_number(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(json_number(1e300), "1e+300");
  EXPECT_EQ(json_number(-3), "-3.0");
}

TEST(RingJson, ScheduleFormatErrorsAndModelViolationsAreApart) {
  auto schedule_error = [](const std::string& text) -> std::string {
    try {
      read_ring_schedule(text);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(schedule_error(R"({"makespan": 1})"), "missing field (at $.transfers)");
  EXPECT_EQ(schedule_error(R"({"transfers": [{"from": 0, "dir": "next", "start": 0}]})"),
            "missing field (at $.transfers[0].count)");
  EXPECT_EQ(schedule_error(R"({"transfers": [{"from": 0, "dir": 1, "start": 0, "count": 1}]})"),
            "must be a string, got an integer (at $.transfers[0].dir)");
  // Streamed transfers keep exact paths, also past the first element and inside broken JSON.
  EXPECT_EQ(schedule_error(R"({"transfers": [{"from": 0, "dir": "next", "start": 0, "count": 1},
                                             {"from": 0, "dir": "next", "start": "x", "count": 1}]})"),
            "must be a number, got string (at $.transfers[1].start)");
  EXPECT_EQ(schedule_error(R"({"transfers": [1]})"),
            "must be an object, got an integer (at $.transfers[0])");
  EXPECT_EQ(schedule_error(R"({"transfers": {"from": 0}})"),
            "must be an array, got object (at $.transfers)");
  const std::string broken = schedule_error(
      R"({"transfers": [{"from": 0, "dir": "next", "start": 0, "count": 1}, {"from": 0,, }]})");
  EXPECT_NE(broken.find("malformed JSON"), std::string::npos) << broken;
  EXPECT_NE(broken.find("(at $.transfers[1].from)"), std::string::npos) << broken;
  // Unknown directions, negative counts and starts, and zero periods are read, then judged
  // invalid by the validator (exit 1, not 2).
  const RingScheduleDocument odd = read_ring_schedule(
      R"({"transfers": [{"from": 7, "dir": "up", "start": -1, "count": -2, "period": 0}]})");
  EXPECT_EQ(odd.stated.unknown_directions, std::vector<std::size_t>{0});
  EXPECT_EQ(odd.schedule.transfers[0].count, -2);
  EXPECT_LT(odd.schedule.transfers[0].period, 0);
  EXPECT_FALSE(odd.stated.makespan);  // absent: not compared
  EXPECT_FALSE(odd.stated.flows);
}

std::string schedule_error_of(const std::string& text, std::size_t max_runs = 100) {
  try {
    read_ring_schedule(text, max_runs);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Misspelt or foreign members were silently ignored; every member `ring plan` writes is read.
TEST(StrictCheck, UnknownScheduleFieldsAreInputErrors) {
  EXPECT_EQ(
      schedule_error_of(
          R"({"transfers": [{"from": 0, "dir": "next", "start": 0, "count": 1, "perod": 2}]})"),
      "unknown field (did you mean 'period'?) (at $.transfers[0].perod)");
  EXPECT_EQ(schedule_error_of(R"({"transfers": [], "makespam": 3})"),
            "unknown field (did you mean 'makespan'?) (at $.makespam)");
  EXPECT_EQ(schedule_error_of(R"({"transfers": [], "light": "yes"})"),
            "must be true or false, got string (at $.light)");
  EXPECT_EQ(schedule_error_of(R"({"transfers": [], "notes": [1]})"),
            "must be a string, got an integer (at $.notes[0])");
  ring::Schedule s;
  s.algorithm = "light";
  s.makespan = 3.5;
  s.lower_bound = 3.0;
  s.optimal = false;
  s.light = true;
  s.flows = {1, 0};
  s.notes = {"a note"};
  s.transfers = {{0, ring::Direction::next, 0.0, 1, 0.0}};
  const RingScheduleDocument back = read_ring_schedule(ring_schedule_json(s));
  EXPECT_TRUE(back.stated.makespan);
  EXPECT_TRUE(back.stated.flows);
  EXPECT_EQ(back.schedule.flows, s.flows);
  EXPECT_EQ(back.schedule.light, true);
}

// A stated negative makespan and an empty flows array are stated values, kept for the validator.
TEST(StrictCheck, StatedNegativeMakespanAndEmptyFlowsAreKept) {
  const RingScheduleDocument s =
      read_ring_schedule(R"({"makespan": -3, "flows": [], "transfers": []})");
  EXPECT_TRUE(s.stated.makespan);
  EXPECT_EQ(s.schedule.makespan, -3.0);
  EXPECT_TRUE(s.stated.flows);
  EXPECT_TRUE(s.schedule.flows.empty());
}

TEST(ResourceLimits, ScheduleReaderRefusesRunsBeyondItsLimit) {
  const std::string run = R"({"from": 0, "dir": "next", "start": 0, "count": 1})";
  const std::string three = R"({"transfers": [)" + run + "," + run + "," + run + "]}";
  const std::string error = schedule_error_of(three, 2);
  EXPECT_NE(error.find("at most 2 runs"), std::string::npos) << error;
  EXPECT_NE(error.find("(at $.transfers[2])"), std::string::npos) << error;
  EXPECT_EQ(schedule_error_of(three, 3), "no error");
}

TEST(ResourceLimits, InstanceReaderRefusesRingsBeyondItsLimit) {
  const std::size_t n = ring::kMaxProcessors + 1;
  Json doc;
  doc["ring"]["loads"] = std::vector<std::int64_t>(n, 1);
  doc["ring"]["targets"] = std::vector<std::int64_t>(n, 1);
  doc["ring"]["cost_next"] = 1;
  try {
    read_ring_instance(doc);
    ADD_FAILURE() << "accepted " << n << " processors";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "$.ring.loads");
  }
}

}  // namespace
}  // namespace redist::io
