// The faces of an exchange plan agree: the text summary states the JSON document's makespan,
// lower bound and optimality, on every bundled instance and on random ones, and the JSON plan
// passes `check`.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "redist/exchange.hpp"
#include "redist/io/exchange_json.hpp"
#include "redist/io/json.hpp"
#include "redist/testing/random_exchange.hpp"

namespace redist::exchange {
namespace {

// The value of the summary's field `label` (the text after the padded label, up to the end of the
// line or, for the bound, to its terms).
std::string field(const std::string& text, const std::string& label) {
  const std::size_t at = text.find("\n" + label + " ");
  if (at == std::string::npos) return "";
  const std::size_t from = text.find_first_not_of(' ', at + 1 + label.size());
  return text.substr(from, text.find('\n', from) - from);
}

double first_number(const std::string& value) { return std::stod(value); }

void expect_faces_agree(const std::string& instance, const std::string& algorithm,
                        const std::string& where) {
  const std::string options = R"({"algorithm": ")" + algorithm + "\"}";
  const io::Json plan = io::Json::parse(plan_json(instance, options));
  const std::string text =
      plan_json(instance, R"({"algorithm": ")" + algorithm + R"(", "format": "text"})");
  const double makespan = plan["makespan"], bound = plan["lower_bound"];
  EXPECT_NEAR(first_number(field(text, "makespan")), makespan, 1e-9 * makespan) << where;
  EXPECT_NEAR(first_number(field(text, "lower bound")), bound, 1e-9 * bound) << where;
  EXPECT_EQ(field(text, "optimal").rfind("yes", 0) == 0, plan["optimal"].get<bool>()) << where;
  EXPECT_EQ(field(text, "validator"), "valid") << where;
  const io::Json verdict = io::Json::parse(check_json(instance, plan.dump()));
  EXPECT_TRUE(verdict["valid"].get<bool>()) << where;
}

std::string data_dir() {
  const char* dir = std::getenv("REDIST_DATA_DIR");
  return dir ? dir : (std::filesystem::path(__FILE__).parent_path() / "../../../data").string();
}

TEST(ExchangeFaces, TextAndJsonAgreeOnEveryBundledInstance) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir() + "/exchange")) {
    const std::string instance = io::read_text(entry.path().string());
    for (const char* algorithm : {"auto", "whole"}) {
      expect_faces_agree(instance, algorithm, entry.path().string() + " " + algorithm);
    }
    ++files;
  }
  EXPECT_GE(files, 3);
}

TEST(ExchangeFaces, TextAndJsonAgreeOnRandomInstances) {
  std::mt19937_64 rng(43);
  testkit::RandomExchangeOptions o;
  for (int trial = 0; trial < 2000; ++trial) {
    o.latency = trial % 3 == 0 ? 0.5 : 0.0;
    o.backbone = trial % 4 == 0;
    const std::string instance = io::exchange_instance_json(testkit::random_exchange(rng, o));
    expect_faces_agree(instance, trial % 2 == 0 ? "auto" : "whole",
                       "trial " + std::to_string(trial));
  }
}

}  // namespace
}  // namespace redist::exchange
