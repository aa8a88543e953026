#include "redist/io/dlt_json.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/dlt/planner.hpp"

namespace redist::io {
namespace {

TEST(DltJson, InstanceAndPlanRoundTrip) {
  const dlt::Instance in =
      read_dlt_instance(parse_document(R"({"dlt": {"b": [1, 2], "s": [1, 1], "alpha": [4, 0]}})"));
  EXPECT_EQ(in.alpha[0], 4);
  EXPECT_THROW(read_dlt_instance(parse_document(R"({"dlt": {"b": [1], "s": [1], "alpha": [-1]}})")),
               InputError);
  const dlt::Schedule s = dlt::plan(in);
  const DltScheduleDocument doc = read_dlt_schedule(dlt_plan_json(s));
  EXPECT_TRUE(doc.stated.makespan && doc.stated.delta);
  EXPECT_EQ(doc.schedule.transfers.size(), 1u);
  EXPECT_EQ(doc.schedule.makespan, s.makespan);
  EXPECT_EQ(doc.schedule.delta, s.delta);
  EXPECT_TRUE(dlt::check(in, doc.schedule, doc.stated).valid);
}

TEST(DltJson, UnstatedClaimsAreNotCompared) {
  const DltScheduleDocument doc =
      read_dlt_schedule(R"({"transfers": [{"from": 0, "to": 1, "amount": 1, "rate": 1}]})");
  EXPECT_FALSE(doc.stated.makespan);
  EXPECT_FALSE(doc.stated.delta);
}

}  // namespace
}  // namespace redist::io
