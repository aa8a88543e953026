// The star faces agree: on every bundled star example and on thousands of random platforms, the
// text summary's makespan, lower bound and optimality are those of the JSON document, both
// rendered from the one planned schedule.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/io/star_json.hpp"
#include "redist/star.hpp"
#include "redist/star/random_instances.hpp"
#include "redist/testing/faces.hpp"
#include "redist/text/star_summary.hpp"
#include "redist/text/summary.hpp"

namespace redist::star {
namespace {

// The text's makespan, lower bound (its first number) and optimal (yes / not proven) equal the
// JSON's makespan, lower_bound and optimal.
void expect_faces_agree(const Instance& in, const Schedule& s, const std::string& where) {
  const io::Json json = io::Json::parse(io::star_schedule_json(s));
  const std::string text = text::star_summary(in, s, check(in, s), "redist star plan", "");
  EXPECT_EQ(testkit::summary_field(text, "makespan"),
            text::quantity(json["makespan"].get<double>(), text::kTimeUnits))
      << where;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")),
            text::number(json["lower_bound"].get<double>()))
      << where;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), json["optimal"].get<bool>()) << where << ": " << optimal;
  EXPECT_TRUE(optimal.starts_with("yes") || optimal.starts_with("not proven")) << optimal;
  EXPECT_EQ(s.optimal, s.proof != Proof::none) << where;
  EXPECT_EQ(testkit::claims_disagreement(text, json), "") << where << "\n" << text;
}

TEST(StarFaces, BundledExamples) {
  std::size_t planned = 0;
  for (const auto& [path, text] : testkit::bundled_documents("star")) {
    if (io::Json::parse(text)["star"].contains("delta")) continue;  // an `order` instance
    const Instance in = io::read_star_instance(io::parse_document(text));
    for (const AlgorithmName& a : algorithm_names()) {
      expect_faces_agree(in, plan(in, {a.name}), path + " " + a.name);
    }
    ++planned;
  }
  EXPECT_GE(planned, 1u);
}

TEST(StarFaces, RandomPlatforms) {
  std::mt19937_64 rng(2024);
  for (int k = 0; k < 2000; ++k) {
    const PlatformType type{k % 4 == 0, k % 3 == 0, static_cast<Range>(k % 3)};
    // Mostly small platforms (exact proves or bounds them), every tenth beyond exact's limits.
    const RandomShape shape = k % 10 == 0 ? RandomShape{3, 12, 20, 200} : RandomShape{1, 5, 0, 12};
    const Instance in = random_instance(rng, type, shape);
    const char* algorithm = k % 4 == 0   ? "bba"
                            : k % 4 == 1 ? "mbbsa"
                            : k % 4 == 2 ? "rbsa"
                                         : "best";
    expect_faces_agree(in, plan(in, {algorithm}), std::to_string(k));
  }
}

}  // namespace
}  // namespace redist::star
