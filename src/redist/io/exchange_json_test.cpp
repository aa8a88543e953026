#include "redist/io/exchange_json.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/exchange.hpp"
#include "redist/exchange/limits.hpp"
#include "redist/testing/random_cases.hpp"

namespace redist::io {
namespace {

// A dense matrix of more non-zero entries than an instance may have messages is refused at the
// entry where the count passes the limit: the document has no "messages" member to name (it
// was refused at $.exchange.messages).
TEST(ExchangeJson, ADenseMatrixBeyondTheMessageLimitIsRefusedAtItsEntry) {
#ifdef REDIST_TESTING_SANITIZED
  GTEST_SKIP() << "5 million entries: the Release build's test";
#endif
  const std::size_t nodes = 2237;  // 2237 x 2236 = 5,001,932 off-diagonal entries
  ASSERT_GT(nodes * (nodes - 1), exchange::kMaxMessages);
  Json rows = Json::array();
  for (std::size_t i = 0; i < nodes; ++i) {
    std::vector<std::int64_t> row(nodes, 1);
    row[i] = 0;
    rows.push_back(row);
  }
  const Json document = {{"exchange", {{"nodes", nodes}, {"matrix", std::move(rows)}}}};
  try {
    (void)read_exchange_instance(document);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at most 5000000 messages are accepted"),
              std::string::npos)
        << e.what();
    // Rows 0..2235 hold 4,999,696 entries; the 305th of row 2236 is one too many.
    EXPECT_NE(e.path().find("matrix[2236][304]"), std::string::npos) << e.path();
  }
}

// A step plan's starts go into its document and come back when it is read (what `check --gantt`
// draws); starts that go back in time, or do not match the count, are refused at their place.
TEST(ExchangeJson, AStepPlanKeepsItsStartsThroughItsDocument) {
  exchange::Instance in;
  in.nodes = 4;
  in.messages = {{0, 2, 4}, {1, 0, 2}, {1, 2, 2}, {1, 3, 2}, {2, 1, 4}, {2, 3, 4}};
  in.send_bandwidth = in.recv_bandwidth = {1, 1, 1, 1};
  for (const char* algorithm : {"ggp", "oggp", "steps", "min-steps"}) {
    const exchange::Plan plan = exchange::plan(in, algorithm);
    ASSERT_TRUE(plan.steps) << algorithm;
    ASSERT_EQ(plan.steps->starts.size(), plan.steps->count) << algorithm;
    const ExchangePlanDocument doc = read_exchange_plan(exchange_plan_json(plan));
    ASSERT_TRUE(doc.plan.steps) << algorithm;
    EXPECT_EQ(doc.plan.steps->starts, plan.steps->starts) << algorithm;
    EXPECT_EQ(doc.plan.steps->count, plan.steps->count) << algorithm;
    EXPECT_EQ(doc.plan.steps->eta_s, plan.steps->eta_s) << algorithm;
  }
  // Without "starts" (a document written before they were kept) the plan has no steps to draw.
  EXPECT_FALSE(read_exchange_plan(R"({"steps": {"count": 2, "lower_bound": 1, "eta_d": 1,
                                      "eta_s": 1}, "pieces": []})")
                   .plan.steps);
  const auto refused_at = [](const std::string& text) {
    try {
      read_exchange_plan(text);
    } catch (const InputError& e) {
      return e.path();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused_at(R"({"steps": {"count": 2, "starts": [1, 0]}, "pieces": []})"),
            "$.steps.starts[1]");
  EXPECT_EQ(refused_at(R"({"steps": {"count": 2, "starts": [-1, 0]}, "pieces": []})"),
            "$.steps.starts[0]");
  EXPECT_EQ(refused_at(R"({"steps": {"count": 3, "starts": [0, 1]}, "pieces": []})"),
            "$.steps.starts");
}

}  // namespace
}  // namespace redist::io
