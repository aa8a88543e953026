// The readable summaries: on random instances of every family, each summary states the
// validator's verdict "valid", the plan's makespan as number() writes it and its optimality,
// never prints a non-finite number, and says so when it cuts a list or a table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/balance.hpp"
#include "redist/dlt.hpp"
#include "redist/lau.hpp"
#include "redist/ring.hpp"
#include "redist/slicering.hpp"
#include "redist/star.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/random_lau.hpp"
#include "redist/testing/random_ring.hpp"
#include "redist/text/balance_summary.hpp"
#include "redist/text/dlt_summary.hpp"
#include "redist/text/lau_summary.hpp"
#include "redist/text/ring_summary.hpp"
#include "redist/text/slicering_summary.hpp"
#include "redist/text/star_summary.hpp"
#include "redist/text/summary.hpp"

namespace redist::text {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What every summary must hold: its heading first, the verdict of a valid plan, the makespan, and
// no word a non-finite double prints as.
void expect_sound(const std::string& summary, const std::string& heading,
                  const std::string& makespan) {
  EXPECT_EQ(summary.rfind(heading + ": ", 0), 0u) << summary;
  EXPECT_TRUE(contains(summary, "\nvalidator   valid\n")) << summary;
  EXPECT_TRUE(contains(summary, "\nmakespan    " + makespan)) << summary;
  EXPECT_TRUE(contains(summary, "\noptimal     ")) << summary;
  for (const char* bad : {"nan", "inf", "null"}) EXPECT_FALSE(contains(summary, bad)) << summary;
}

TEST(TextNumber, ShortestWhenShortElseTenDigits) {
  EXPECT_EQ(number(67.5), "67.5");
  EXPECT_EQ(number(1e20), "1e+20");
  EXPECT_EQ(number(0.1 + 0.2), "0.3");
  EXPECT_EQ(number(2.0 / 3.0), "0.6666666667");
  EXPECT_EQ(number(0), "0");
}

TEST(TextNumbers, CutsLongListsAndSaysSo) {
  const std::vector<std::int64_t> values(kMaxListed + 8, 7);
  const std::string text = numbers(values);
  EXPECT_TRUE(contains(text, fmt::format("... ({} in all)", kMaxListed + 8))) << text;
  EXPECT_EQ(numbers(std::vector<std::int64_t>{1, -2, 3}), "1 -2 3");
}

TEST(TextSummary, OptimalityStatesWhyOrTheGap) {
  Summary a, b, c;
  a.optimality(true, 4, 4, "exact");
  b.optimality(true, 5, 4, "exact");
  c.optimality(false, 5, 4, "bba");
  EXPECT_EQ(a.str(), "optimal     yes (makespan equals the lower bound)\n");
  EXPECT_EQ(b.str(), "optimal     yes (proven by the exact algorithm)\n");
  EXPECT_EQ(c.str(), "optimal     not proven (makespan 25.0% above the lower bound)\n");
}

TEST(RingSummary, RandomRingsAreSummarisedSoundly) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 300; ++k) {
    const ring::Instance in =
        testkit::random_ring(rng, {.n_min = 2, .n_max = 40, .bidirectional = k % 2 == 0});
    const ring::Schedule s = ring::plan(in);
    expect_sound(ring_summary(in, s, ring::check(in, s), "redist ring plan", ""),
                 "redist ring plan", number(s.makespan));
  }
}

TEST(RingSummary, BalancedRingMovesNothingAndLongTablesAreCut) {
  ring::Instance in;
  in.loads = in.targets = {5, 5, 5};
  in.cost_next = {1, 1, 1};
  const ring::Schedule idle_plan = ring::plan(in);
  const std::string idle =
      ring_summary(in, idle_plan, ring::check(in, idle_plan), "redist ring plan", "");
  EXPECT_TRUE(contains(idle, "nobody: every processor already holds its target")) << idle;

  ring::Instance big;
  const std::size_t n = 3 * kMaxRows;
  big.cost_next.assign(n, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    big.loads.push_back(i % 2 == 0 ? 2 : 0);
    big.targets.push_back(1);
  }
  const ring::Schedule big_plan = ring::plan(big);
  const std::string cut =
      ring_summary(big, big_plan, ring::check(big, big_plan), "redist ring plan", "");
  EXPECT_TRUE(contains(cut, fmt::format("... and {} more", n / 2 - kMaxRows))) << cut;
}

TEST(LauSummary, RandomRingsBothModes) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 300; ++k) {
    const lau::Instance in = testkit::random_lau(rng, {.n_min = 2, .n_max = 30});
    const lau::Mode mode = k % 2 == 0 ? lau::Mode::single : lau::Mode::multi;
    const lau::Plan p = lau::plan(in, {k % 3 == 0 ? "linear" : "optimal", mode});
    const std::string text = lau_summary(in, p, lau::check(in, p), "redist lau plan", "");
    expect_sound(text, "redist lau plan", fmt::format("{} step", *lau::time_in(p, mode)));
    EXPECT_TRUE(contains(text, p.optimal ? "optimal     yes" : "optimal     not proven")) << text;
  }
}

TEST(StarSummary, FinalTasksAddUpAndTheVerdictIsStated) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> workers(1, 6), load(0, 9);
  std::uniform_real_distribution<double> time(0.5, 4.0);
  for (int k = 0; k < 300; ++k) {
    star::Instance in;
    for (int i = workers(rng); i > 0; --i) {
      in.c.push_back(time(rng));
      in.w.push_back(time(rng));
      in.loads.push_back(load(rng));
    }
    const star::Schedule s = star::plan(in);
    const std::string text = star_summary(in, s, star::check(in, s), "redist star plan", "");
    expect_sound(text, "redist star plan", number(s.makespan));
    EXPECT_TRUE(contains(text, fmt::format("\ntasks moved {}\n", s.transfers.size()))) << text;
  }
}

TEST(DltSummary, OptimalAndValid) {
  const dlt::Instance in{{2, 1, 4, 1}, {1, 3, 2, 1}, {10, 0, 2, 6}};
  const dlt::Schedule s = dlt::plan(in);
  const std::string text = dlt_summary(in, s, dlt::check(in, s), "redist dlt plan", "");
  expect_sound(text, "redist dlt plan", number(s.makespan));
  EXPECT_TRUE(contains(text, "optimal     yes (makespan equals the lower bound)")) << text;
}

TEST(SliceringSummary, RingMembersAndLeftOut) {
  std::mt19937_64 rng(9);
  for (int k = 0; k < 200; ++k) {
    const slicering::Cluster cluster =
        slicering::testing::random_cluster(rng, 2 + k % 7, 10.0, 1.0);
    const slicering::Solution s = slicering::plan(cluster);
    const std::string text =
        slicering_summary(cluster, s, slicering::check(cluster, s), "redist slicering plan", "");
    expect_sound(text, "redist slicering plan", number(s.makespan));
    EXPECT_TRUE(contains(text, fmt::format("({} of {} processors)", s.ring.size(), cluster.size())))
        << text;
  }
}

TEST(AdviseSummary, AnswerAndTheRedistribution) {
  balance::AdviseInput in;
  in.ring = {true, {1, 1, 1, 1}, {1, 1, 1, 1}};
  in.loads = {40, 0, 0, 0};
  in.speeds = {1, 1, 1, 1};
  in.remaining_iterations = 100;
  const balance::Advice a = balance::advise(in);
  const ring::Instance moved = balance::redistribution_instance(in.ring, in.loads, a.targets);
  const std::string text =
      advise_summary(in, a, ring::check(moved, a.schedule), "redist balance advise", "");
  EXPECT_TRUE(contains(text, a.rebalance ? "rebalance   yes" : "rebalance   no")) << text;
  EXPECT_TRUE(contains(text, "\nthe redistribution to the targets: ")) << text;
  EXPECT_TRUE(contains(text, "\nvalidator   valid\n")) << text;
}

}  // namespace
}  // namespace redist::text
