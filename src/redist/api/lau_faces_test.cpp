// The LAU faces agree: on every bundled lau example and on thousands of random rings, the text
// summary's makespan and optimality are the JSON document's time in the plan's mode and its
// `optimal`, and its lower bound is the plan's, all rendered from the one plan.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>

#include "redist/io/lau_json.hpp"
#include "redist/lau.hpp"
#include "redist/testing/faces.hpp"
#include "redist/testing/random_lau.hpp"
#include "redist/text/lau_summary.hpp"

namespace redist::lau {
namespace {

void expect_faces_agree(const Instance& in, const Plan& p, const std::string& where) {
  const io::Json json = io::Json::parse(io::lau_plan_json(p));
  const std::string text = text::lau_summary(in, p, check(in, p), "redist lau plan", "");
  const io::Json& time = json[p.mode == Mode::single ? "t_single" : "t_multi"];
  const std::string makespan = testkit::first_word(testkit::summary_field(text, "makespan"));
  EXPECT_EQ(makespan, time.is_null() ? "deadlock" : fmt::format("{}", time.get<std::int64_t>()))
      << where;
  const std::string bound = testkit::first_word(testkit::summary_field(text, "lower bound"));
  EXPECT_EQ(bound, std::isfinite(p.lower_bound.value()) ? fmt::format("{}", p.lower_bound.value())
                                                        : "none:")
      << where;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), json["optimal"].get<bool>()) << where << ": " << optimal;
  EXPECT_TRUE(optimal.starts_with("yes") || optimal.starts_with("not proven")) << optimal;
  EXPECT_EQ(testkit::claims_disagreement(text, json), "") << where << "\n" << text;
}

TEST(LauFaces, BundledExamples) {
  std::size_t planned = 0;
  for (const auto& [path, text] : testkit::bundled_documents("lau")) {
    const io::LauDocument doc = io::read_lau_document(io::parse_document(text), false);
    for (const AlgorithmName& a : algorithm_names()) {
      for (const Mode mode : {Mode::single, Mode::multi}) {
        expect_faces_agree(doc.instance, plan(doc.instance, {a.name, mode}), path + " " + a.name);
      }
    }
    ++planned;
  }
  EXPECT_GE(planned, 1u);
}

TEST(LauFaces, RandomRings) {
  std::mt19937_64 rng(2026);
  const std::vector<AlgorithmName>& names = algorithm_names();
  for (int k = 0; k < 3000; ++k) {
    const Instance in =
        testkit::random_lau(rng, {.n_min = 2, .n_max = 30, .random_targets = k % 3 == 0});
    const Mode mode = k % 2 == 0 ? Mode::single : Mode::multi;
    const std::string& algorithm = names[static_cast<std::size_t>(k) % names.size()].name;
    expect_faces_agree(in, plan(in, {algorithm, mode}), std::to_string(k));
  }
}

}  // namespace
}  // namespace redist::lau
