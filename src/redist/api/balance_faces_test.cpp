// The faces of an advice agree: the text summary of `balance advise` states the JSON document's
// answer, its cost (the planned redistribution's makespan) and, for that redistribution, the
// ring schedule's makespan, lower bound and optimality, on the bundled advice and random ones.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/balance.hpp"
#include "redist/io/json.hpp"
#include "redist/testing/faces.hpp"
#include "redist/text/summary.hpp"

namespace redist::balance {
namespace {

void expect_faces_agree(const std::string& instance, const std::string& where) {
  const io::Json json = io::Json::parse(advise_json(instance));
  const std::string text = advise_json(instance, R"({"format": "text"})");
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "rebalance")) == "yes",
            json["rebalance"].get<bool>())
      << where;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "cost")),
            text::number(json["plan_makespan"].get<double>()))
      << where;
  const io::Json& schedule = json["schedule"];
  EXPECT_EQ(testkit::summary_field(text, "makespan"),
            text::quantity(schedule["makespan"].get<double>(), text::kTimeUnits))
      << where;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")),
            text::number(schedule["lower_bound"].get<double>()))
      << where;
  EXPECT_EQ(testkit::summary_field(text, "optimal").starts_with("yes"),
            schedule["optimal"].get<bool>())
      << where;
}

TEST(BalanceFaces, BundledAdvice) {
  int planned = 0;
  for (const auto& [path, text] : testkit::bundled_documents("balance")) {
    if (text.find("remaining_iterations") == std::string::npos) continue;  // traces
    expect_faces_agree(text, path);
    ++planned;
  }
  EXPECT_GE(planned, 1);
}

TEST(BalanceFaces, RandomAdvice) {
  std::mt19937_64 rng(61);
  std::uniform_int_distribution<int> processors(2, 12), load(0, 400), iterations(0, 200);
  std::uniform_real_distribution<double> speed(1.0, 100.0), cost(0.01, 2.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const int p = processors(rng);
    io::Json balance;
    balance["ring"]["bidirectional"] = trial % 2 == 0;
    for (int i = 0; i < p; ++i) {
      balance["ring"]["cost_next"].push_back(cost(rng));
      if (trial % 2 == 0) balance["ring"]["cost_prev"].push_back(cost(rng));
      balance["loads"].push_back(load(rng) + (i == 0 ? 1 : 0));
      balance["speeds"].push_back(speed(rng));
    }
    balance["remaining_iterations"] = iterations(rng);
    const io::Json document = {{"balance", balance}};
    expect_faces_agree(document.dump(), "trial " + std::to_string(trial));
  }
}

}  // namespace
}  // namespace redist::balance
