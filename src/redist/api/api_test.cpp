// The public headers: typed plan/check agree with each other on random instances, the JSON entry
// points print what the typed functions return, and errors read as on the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "redist/balance.hpp"
#include "redist/common/tolerance.hpp"
#include "redist/dlt.hpp"
#include "redist/exchange.hpp"
#include "redist/io/json.hpp"
#include "redist/lau.hpp"
#include "redist/ring.hpp"
#include "redist/slicering.hpp"
#include "redist/star.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/testing/random_exchange.hpp"
#include "redist/testing/random_lau.hpp"
#include "redist/testing/random_ring.hpp"

namespace redist {
namespace {

// The what() of the InputError `body` throws ("" if none).
template <typename Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RingApi, TypedPlanPassesTypedCheckAndJsonAgrees) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 300; ++k) {
    const ring::Instance in =
        testkit::random_ring(rng, {.n_min = 2, .n_max = 12, .bidirectional = k % 2 == 0});
    const ring::Schedule s = ring::plan(in);
    const CheckResult c = ring::check(in, s);
    ASSERT_TRUE(c.valid) << c.reason;
    EXPECT_DOUBLE_EQ(c.makespan, s.makespan);
    EXPECT_LE(s.lower_bound, s.makespan * (1 + 1e-9));
  }
}

TEST(RingApi, JsonErrorsReadAsOnTheCommandLine) {
  const std::string bad = R"({"ring": {"loads": [2, -1], "targets": [1, 0], "cost_next": 1}})";
  EXPECT_NE(error_of([&] { ring::plan_json(bad); }).find("(at $.ring.loads[1])"),
            std::string::npos);
  const std::string good = R"({"ring": {"loads": [2, 0], "targets": [1, 1], "cost_next": 1}})";
  EXPECT_NE(error_of([&] {
              ring::plan_json(good, R"({"algorithm": "magic"})");
            }).find("(at --algorithm)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { ring::plan_json(good, R"({"colour": "red"})"); }).find("(at --colour)"),
            std::string::npos);
  // The JSON name time_limit is the flag --time-limit.
  EXPECT_NE(
      error_of([&] { ring::plan_json(good, R"({"time_limit": -1})"); }).find("(at --time-limit)"),
      std::string::npos);
  EXPECT_EQ(error_of([&] { ring::plan_json(good, R"({"algorithm": "exact"})"); }), "");
}

TEST(LauApi, PlanFillsMakespanBoundAndOptimalAndCheckAgrees) {
  std::mt19937_64 rng(12);
  for (int k = 0; k < 500; ++k) {
    const lau::Instance in = testkit::random_lau(rng, {.n_max = 20, .random_targets = k % 3 == 0});
    for (lau::Mode mode : {lau::Mode::single, lau::Mode::multi}) {
      for (const char* algorithm : {"linear", "traffic", "optimal-window", "optimal"}) {
        const lau::Plan p = lau::plan(in, {algorithm, mode});
        const lau::Time t = lau::time_in(p, mode);
        ASSERT_EQ(p.mode, mode);
        ASSERT_EQ(p.makespan, t ? static_cast<double>(*t) : HUGE_VAL) << algorithm;
        ASSERT_TRUE(std::isfinite(p.lower_bound.value()))
            << algorithm;  // the optimum never deadlocks
        EXPECT_LE(p.lower_bound, p.makespan);
        EXPECT_EQ(p.optimal, p.makespan == p.lower_bound);
        EXPECT_EQ(p.proof, p.optimal ? Proof::lower_bound : Proof::none);
        const CheckResult c = lau::check(in, p);
        EXPECT_EQ(c.valid, t.has_value()) << c.reason;
        if (c.valid) {
          EXPECT_EQ(c.makespan, p.makespan);
        }
      }
    }
  }
}

TEST(LauApi, CheckRefusesFlowsThatDoNotBalanceAndClaimsThatDiffer) {
  const lau::Instance in{{4, 0, 2}, {2, 2, 2}};
  lau::Plan unbalanced;
  unbalanced.flows = {1, 0, 0};
  EXPECT_FALSE(lau::check(in, unbalanced, {false, false, false, false}).valid);
  unbalanced.flows = {2, 0};
  EXPECT_FALSE(lau::check(in, unbalanced, {false, false, false, false}).valid);
  const std::string instance = R"({"lau": {"loads": [4, 0, 2]}})";
  const std::string plan = lau::plan_json(instance);
  EXPECT_NE(lau::check_json(instance, plan).find("\"valid\": true"), std::string::npos);
  const io::Json doc = io::Json::parse(plan);
  io::Json wrong = doc;
  wrong["t_single"] = doc["t_single"].get<std::int64_t>() + 1;
  EXPECT_NE(lau::check_json(instance, wrong.dump()).find("\"valid\": false"), std::string::npos);
  EXPECT_NE(error_of([&] {
              lau::check_json(instance, R"({"flows": [1, "x", 0]})");
            }).find("(at $.flows[1])"),
            std::string::npos);
  EXPECT_NE(error_of([&] { lau::plan_json(instance, R"({"mode": "both"})"); }).find("(at --mode)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              lau::plan_json(R"({"lau": {"loads": [4, -1, 2]}})");
            }).find("(at $.lau.loads[1])"),
            std::string::npos);
}

TEST(StarApi, TypedPlanPassesTypedCheck) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> time(0.5, 4.0);
  std::uniform_int_distribution<std::int64_t> load(0, 6);
  for (int k = 0; k < 200; ++k) {
    star::Instance in;
    const std::size_t m = 2 + static_cast<std::size_t>(k % 4);
    for (std::size_t i = 0; i < m; ++i) {
      in.c.push_back(time(rng));
      in.w.push_back(time(rng));
      in.loads.push_back(load(rng));
    }
    for (const char* algorithm : {"bba", "mbbsa", "rbsa", "best"}) {
      const star::Schedule s = star::plan(in, {algorithm});
      const CheckResult c = star::check(in, s);
      ASSERT_TRUE(c.valid) << algorithm << ": " << c.reason;
      EXPECT_TRUE(at_most(s.lower_bound.value(), s.makespan));
    }
  }
}

TEST(StarApi, JsonErrorsReadAsOnTheCommandLine) {
  EXPECT_NE(error_of([&] {
              star::plan_json(R"({"star": {"c": [1, 0], "w": [1, 1], "loads": [1, 1]}})");
            }).find("(at $.star.c[1])"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              star::plan_json(R"({"star": {"c": [1, 1], "w": [1, 1], "loads": [2, 0]}})",
                              R"({"algorithm": "fastest"})");
            }).find("(at --algorithm)"),
            std::string::npos);
}

TEST(DltApi, PlanIsOptimalAndPassesCheck) {
  const dlt::Instance in{{1, 1, 2}, {1, 2, 1}, {3, 0, 1}};
  for (const dlt::Solver solver : {dlt::Solver::fast, dlt::Solver::lp}) {
    const dlt::Schedule s = dlt::plan(in, {solver});
    EXPECT_TRUE(s.optimal);
    EXPECT_EQ(s.lower_bound, s.makespan);
    const CheckResult c = dlt::check(in, s);
    EXPECT_TRUE(c.valid) << c.reason;
  }
  EXPECT_NE(error_of([&] {
              dlt::plan_json(R"({"dlt": {"b": [1], "s": [1], "alpha": [1]}})",
                             R"({"solver": "slow"})");
            }).find("(at --solver)"),
            std::string::npos);
}

TEST(SliceRingApi, TypedPlanPassesTypedCheck) {
  std::mt19937_64 rng(14);
  for (int k = 0; k < 100; ++k) {
    const slicering::Cluster cl = slicering::testing::random_cluster(rng, 2 + k % 6, 100.0, 1.0);
    for (const char* algorithm : {"greedy", "tsp", "exact"}) {
      const slicering::Solution s = slicering::plan(cl, {algorithm, std::nullopt});
      const CheckResult c = slicering::check(cl, s);
      ASSERT_TRUE(c.valid) << algorithm << ": " << c.reason;
      EXPECT_DOUBLE_EQ(c.makespan, s.makespan);
    }
  }
}

TEST(SliceRingApi, JsonOptionsAndErrors) {
  const std::string cluster =
      R"({"cluster": {"w": [1, 2, 4], "c": [[0, 1, 1], [1, 0, 1], [1, 1, 0]], "W": 10, "H": 1}})";
  const io::Json forced = io::Json::parse(slicering::plan_json(cluster, R"({"q": 2})"));
  EXPECT_EQ(forced["ring"].size(), 2u);
  EXPECT_NE(error_of([&] { slicering::plan_json(cluster, R"({"q": 0})"); }).find("(at --q)"),
            std::string::npos);
  EXPECT_NE(error_of([&] { slicering::plan_json(cluster, R"({"q": "two"})"); }).find("(at --q)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              slicering::plan_json(
                  R"({"cluster": {"w": [1, 0], "c": [[0, 1], [1, 0]], "W": 1, "H": 1}})");
            }).find("(at $.cluster.w[1])"),
            std::string::npos);
}

TEST(BalanceApi, JsonErrorsReadAsOnTheCommandLine) {
  const std::string advise =
      R"({"balance": {"ring": {"cost_next": 1}, "loads": [5, 5], "speeds": [1, 0],
          "remaining_iterations": 10}})";
  EXPECT_NE(error_of([&] { balance::advise_json(advise); }).find("(at $.balance.speeds[1])"),
            std::string::npos);
  const std::string trace =
      R"({"balance": {"ring": {"cost_next": 1}, "loads": [5, 5], "speeds": [[1, 2], [2, 1]]}})";
  EXPECT_NE(error_of([&] { balance::simulate_json(trace, "{}"); }).find("(at --policy)"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              balance::simulate_json(trace, R"({"policy": "sometimes"})");
            }).find("(at --policy)"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { balance::simulate_json(trace, R"({"policy": "oracle"})"); }), "");
}

}  // namespace
}  // namespace redist

// A bandwidth the document leaves out is 1 byte per second, and the plan says so; one given is
// not mentioned.
TEST(ExchangeApi, AnAssumedBandwidthIsNamedInTheNotes) {
  const std::string bare = R"({"exchange": {"nodes": 2, "messages": [[0, 1, 10]]}})";
  const std::string one = R"({"exchange": {"nodes": 2, "messages": [[0, 1, 10]],
                              "send_bandwidth": 2}})";
  const std::string both = R"({"exchange": {"nodes": 2, "messages": [[0, 1, 10]],
                               "send_bandwidth": 2, "recv_bandwidth": 5}})";
  const std::string bare_plan = redist::exchange::plan_json(bare);
  EXPECT_NE(bare_plan.find("send_bandwidth not given: 1 byte per second assumed"),
            std::string::npos);
  EXPECT_NE(bare_plan.find("recv_bandwidth not given"), std::string::npos);
  const std::string one_plan = redist::exchange::plan_json(one);
  EXPECT_EQ(one_plan.find("send_bandwidth not given"), std::string::npos);
  EXPECT_NE(one_plan.find("recv_bandwidth not given"), std::string::npos);
  EXPECT_EQ(redist::exchange::plan_json(both).find("not given"), std::string::npos);
}

// The typed options take exact's time limit: the same plan as the separate argument gives, the
// search stopped (status time limit, unless its best plan meets the bound) when the limit has
// passed at its first look at the clock, and the proven optimum within a generous limit.
TEST(ExchangeApi, TheTypedOptionsTakeATimeLimit) {
  namespace ex = redist::exchange;
  int stopped = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const ex::Instance in = redist::testkit::uniform_exchange(
        4, {{3, 0, 2}, {2, 3, 3}, {3, 1, 3}, {2, 0, 2}, {1, 0, 2}, {1, 2, 3}}, 0.4 + 0.1 * trial);
    const ex::Plan typed = ex::plan(in, ex::PlanOptions{"exact", 1e-9});
    const ex::Plan argument = ex::plan(in, "exact", 1e-9);
    EXPECT_EQ(typed.makespan, argument.makespan) << trial;
    EXPECT_EQ(typed.status, argument.status) << trial;
    EXPECT_TRUE(typed.consistent()) << trial;
    stopped += typed.status == redist::Status::time_limit;
    EXPECT_EQ(ex::plan(in, ex::PlanOptions{"exact", 3600.0}).status, redist::Status::optimal);
  }
  EXPECT_GT(stopped, 0);
}
