// The faces of an exchange plan agree: the text summary states the JSON document's makespan,
// lower bound and optimality, on every bundled instance and on random ones, and the JSON plan
// passes `check`.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/exchange.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/json.hpp"
#include "redist/testing/faces.hpp"
#include "redist/testing/random_cases.hpp"
#include "redist/testing/random_exchange.hpp"
#include "redist/text/summary.hpp"

namespace redist::exchange {
namespace {

void expect_faces_agree(const std::string& instance, const std::string& algorithm,
                        const std::string& where) {
  const std::string options = R"({"algorithm": ")" + algorithm + "\"}";
  const io::Json plan = io::Json::parse(plan_json(instance, options));
  const std::string text =
      plan_json(instance, R"({"algorithm": ")" + algorithm + R"(", "format": "text"})");
  // In seconds, with their unit.
  EXPECT_EQ(testkit::summary_field(text, "makespan"),
            text::number(plan["makespan"].get<double>()) + " s")
      << where;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")),
            text::number(plan["lower_bound"].get<double>()))
      << where;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), plan["optimal"].get<bool>()) << where << ": " << optimal;
  EXPECT_EQ(testkit::summary_field(text, "validator"), "valid") << where;
  if (plan.contains("steps")) {
    EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "steps")),
              std::to_string(plan["steps"]["count"].get<std::size_t>()))
        << where;
  }
  const io::Json verdict = io::Json::parse(check_json(instance, plan.dump()));
  EXPECT_TRUE(verdict["valid"].get<bool>()) << where;
  EXPECT_EQ(testkit::claims_disagreement(text, plan), "") << where << "\n" << text;
}

TEST(ExchangeFaces, TextAndJsonAgreeOnEveryBundledInstance) {
  int files = 0;
  for (const auto& [path, instance] : testkit::bundled_documents("exchange")) {
    for (const AlgorithmName& a : kAlgorithms) {
      if (a.name == "preemptive" && instance.find("backbone") != std::string::npos) continue;
      const bool tiny =
          path.ends_with("preemption-pays.json") || path.ends_with("latency-cut.json");
      if (a.name == "exact" && !tiny) continue;  // exact searches tiny instances only
      expect_faces_agree(instance, std::string(a.name), path + " " + std::string(a.name));
    }
    ++files;
  }
  EXPECT_GE(files, 4);
}

TEST(ExchangeFaces, TextAndJsonAgreeOnRandomInstances) {
  std::mt19937_64 rng(43);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < testkit::random_cases(2000); ++trial) {
    o.latency = trial % 3 == 0 ? 0.5 : 0.0;
    o.backbone = trial % 4 == 0;
    const std::string instance = io::exchange_instance_json(testkit::random_exchange(rng, o));
    const char* algorithms[] = {"auto", "whole", "busiest-first", "ggp", "oggp", "steps"};
    expect_faces_agree(instance, algorithms[trial % 6], "trial " + std::to_string(trial));
  }
}

}  // namespace
}  // namespace redist::exchange
