#include "redist/star/dlt_validate.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "redist/star/dlt.hpp"
#include "redist/testing/random_dlt.hpp"

namespace redist::star {
namespace {

DltClaimedSchedule claim(const DltSchedule& s) {
  DltClaimedSchedule c;
  c.makespan = s.makespan;
  c.delta = s.delta;
  for (const DltTransfer& t : s.transfers) {
    c.transfers.push_back(
        {static_cast<std::int64_t>(t.from), static_cast<std::int64_t>(t.to), t.amount, t.rate});
  }
  return c;
}

DltSchedule planned(const DltInstance& in, const std::string& solver) {
  DltSchedule s = solve_dlt(in, solver);
  dlt_transfers(s);
  return s;
}

TEST(PhysicalValidity, DltWorkerNeverSendsMoreThanItHolds) {
  // Worker 1 holds nothing; LP 7 without delta_i <= alpha_i lets it send.
  const DltInstance in{{1, 10, 100}, {1, 0.1, 100}, {100, 0, 0}};
  for (const char* solver : {"fast", "lp"}) {
    const DltSchedule s = planned(in, solver);
    for (std::size_t i = 0; i < in.alpha.size(); ++i) {
      EXPECT_LE(s.delta[i], in.alpha[i] + 1e-9) << solver << " worker " << i;
    }
    const auto r = validate_dlt_schedule(in, claim(s));
    EXPECT_TRUE(r.valid) << solver << ": " << r.reason;
  }
}

TEST(PhysicalValidity, DltRandomPlansPassTheIndependentCheck) {
  std::mt19937_64 rng(20261123);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    // Six orders of magnitude: some links far slower than the speeds and the converse (where the
    // paper's LP 7 alone lets empty workers send).
    const DltInstance in = testkit::random_dlt(rng, 6, 10);
    const DltSchedule fast = planned(in, "fast"), lp = planned(in, "lp");
    // delta_i <= alpha_i keeps LP 7's optimum: the two solvers still agree.
    ASSERT_NEAR(fast.makespan, lp.makespan, 1e-7 * lp.makespan) << trial;
    for (const DltSchedule* s : {&fast, &lp}) {
      const auto r = validate_dlt_schedule(in, claim(*s));
      ASSERT_TRUE(r.valid) << trial << " " << s->solver << ": " << r.reason;
      EXPECT_NEAR(r.makespan, s->makespan, 1e-9 * s->makespan) << trial;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 6000);
}

TEST(ResourceLimits, DltTransfersAreLinearInWorkers) {
  // Half senders, half receivers: equations 8-9 would write 3000 x 3000 transfers.
  const std::size_t m = 6000;
  DltInstance in;
  for (std::size_t i = 0; i < m; ++i) {
    in.b.push_back(1.0 + static_cast<double>(i % 7));
    in.s.push_back(1.0 + static_cast<double>(i % 5));
    in.alpha.push_back(i % 2 == 0 ? 100.0 + static_cast<double>(i % 11) : 0.0);
  }
  const DltSchedule s = planned(in, "fast");
  std::size_t senders = 0, receivers = 0;
  for (double d : s.delta) senders += d > 0, receivers += d < 0;
  ASSERT_GT(senders, 1000u);
  ASSERT_GT(receivers, 1000u);
  EXPECT_LE(s.transfers.size(), senders + receivers - 1);
  const auto r = validate_dlt_schedule(in, claim(s));
  EXPECT_TRUE(r.valid) << r.reason;
}

TEST(StrictCheck, DltValidatorRejectsImpossibleSchedules) {
  const DltInstance in{{1, 1}, {1, 1}, {10, 0}};
  DltClaimedSchedule ok;
  ok.transfers = {{0, 1, 5, 1}};
  auto r = validate_dlt_schedule(in, ok);
  ASSERT_TRUE(r.valid) << r.reason;
  EXPECT_DOUBLE_EQ(r.makespan, 5);
  auto expect_invalid = [&](DltClaimedSchedule s, const std::string& want) {
    const auto v = validate_dlt_schedule(in, s);
    EXPECT_FALSE(v.valid) << want;
    EXPECT_NE(v.reason.find(want), std::string::npos) << v.reason;
  };
  DltClaimedSchedule s = ok;
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
  expect_invalid(s, "differs");
  s = ok;
  s.delta = std::vector<double>{};
  expect_invalid(s, "delta has 0 entries");
  s.delta = std::vector<double>{5, -4};
  expect_invalid(s, "delta[1]");
}

}  // namespace
}  // namespace redist::star
