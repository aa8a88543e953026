#include "sim/schedule_replay.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>
#include <string>
#include <utility>

#include "redist/ring/planner.hpp"
#include "redist/ring/validate.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist::sim {
namespace {

// Replays `schedule` with the model's durations; checks the final counts and returns the end.
double replay_and_check(const ring::Instance& in, const ring::Schedule& schedule) {
  const double end = replay_makespan(in, schedule);
  ScheduleReplay replay(in, schedule);
  std::vector<std::size_t> running = replay.take_startable();
  while (!running.empty()) {
    for (std::size_t id : running) replay.finish(id);
    running = replay.take_startable();
  }
  EXPECT_TRUE(replay.done());
  EXPECT_EQ(replay.held(), in.targets);
  return end;
}

// Every planner's schedule, replayed with the model's costs, ends no later than planned, and
// moves every item to its target; thousands of random rings, uni- and bidirectional.
TEST(ScheduleReplay, EndsNoLaterThanPlannedOnRandomRings) {
  std::mt19937_64 rng(20261124);
  int replays = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    testkit::RandomRingOptions o;
    o.n_min = 2;
    o.n_max = 10;
    o.load_min = 0;
    o.load_max = 1 + trial % 12;
    o.target_min = trial % 4 == 0 ? 0 : 1;
    o.bidirectional = trial % 3 != 0;
    o.homogeneous = trial % 5 == 0;
    const ring::Instance in = testkit::random_ring(rng, o);
    const ring::Schedule s = ring::plan(in);
    ASSERT_TRUE(ring::check(in, s).valid);
    EXPECT_LE(replay_and_check(in, s), s.makespan * (1 + 1e-9) + 1e-12) << trial;
    ++replays;
  }
  EXPECT_EQ(replays, 3000);
}

// Messages of several items (as the Tiers simulation sends, to pay latency once per message): on
// random rings with random message sizes and a latency per message, the replay never stalls and
// ends with every target.
TEST(ScheduleReplay, MessagesOfSeveralItemsDeliverEveryItem) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    testkit::RandomRingOptions o;
    o.n_min = 2;
    o.n_max = 12;
    o.load_min = 0;
    o.load_max = 1 + trial % 20;
    o.bidirectional = trial % 3 != 0;
    const ring::Instance in = testkit::random_ring(rng, o);
    const ring::Schedule s = ring::plan(in);
    std::vector<std::int64_t> next(in.size()), prev(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      next[i] = 1 + static_cast<std::int64_t>(rng() % 6);
      prev[i] = 1 + static_cast<std::int64_t>(rng() % 6);
    }
    ScheduleReplay replay(in, s, next, prev);
    using Event = std::pair<double, std::size_t>;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> running;
    double now = 0.0;
    while (true) {
      for (std::size_t id : replay.take_startable()) {
        const ScheduleReplay::Item& m = replay.item(id);
        running.push({now + 0.5 + static_cast<double>(m.count) * in.cost(m.from, m.dir), id});
      }
      if (running.empty()) break;
      now = running.top().first;
      replay.finish(running.top().second);
      running.pop();
    }
    ASSERT_TRUE(replay.done()) << "stalled, trial " << trial;
    EXPECT_EQ(replay.held(), in.targets) << trial;
  }
}

TEST(ScheduleReplay, NothingToMove) {
  ring::Instance in;
  in.loads = in.targets = {3, 0};
  in.cost_next = {1.0, 2.0};
  ring::Schedule s;
  EXPECT_EQ(replay_makespan(in, s), 0.0);
  ScheduleReplay replay(in, s);
  EXPECT_TRUE(replay.done());
  EXPECT_TRUE(replay.take_startable().empty());
}

// A relay forwards an item only once it has received it: 0 holds 2 items for 2 (through 1, which
// holds none), so 1's sends wait for its receives and the replay is a pipeline.
TEST(ScheduleReplay, RelayWaitsForItsItems) {
  ring::Instance in;
  in.loads = {2, 0, 0};
  in.targets = {0, 0, 2};
  in.cost_next = {1.0, 3.0, 1.0};
  const ring::Schedule s = ring::plan(in, {"unidirectional"});
  ScheduleReplay replay(in, s);
  std::vector<std::size_t> first = replay.take_startable();
  ASSERT_EQ(first.size(), 1u);  // only 0 -> 1: 1 holds nothing yet
  EXPECT_EQ(replay.item(first[0]).from, 0u);
  EXPECT_DOUBLE_EQ(replay_makespan(in, s), 1.0 + 3.0 + 3.0);
}

}  // namespace
}  // namespace redist::sim
