// The divisible-load faces agree: on every bundled dlt example and on thousands of random
// switches, the text summary's makespan, lower bound and optimality are those of the JSON
// document, both rendered from the one planned schedule.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/dlt.hpp"
#include "redist/dlt/random_instances.hpp"
#include "redist/io/dlt_json.hpp"
#include "redist/testing/faces.hpp"
#include "redist/text/dlt_summary.hpp"
#include "redist/text/summary.hpp"

namespace redist::dlt {
namespace {

void expect_faces_agree(const Instance& in, const Schedule& s, const std::string& where) {
  const io::Json json = io::Json::parse(io::dlt_plan_json(s));
  const std::string text = text::dlt_summary(in, s, check(in, s), "redist dlt plan", "");
  EXPECT_EQ(testkit::summary_field(text, "makespan"),
            text::quantity(json["makespan"].get<double>(), text::kTimeUnits))
      << where;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")),
            text::number(json["lower_bound"].get<double>()))
      << where;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), json["optimal"].get<bool>()) << where << ": " << optimal;
  EXPECT_TRUE(optimal.starts_with("yes") || optimal.starts_with("not proven")) << optimal;
  EXPECT_EQ(testkit::claims_disagreement(text, json), "") << where << "\n" << text;
}

TEST(DltFaces, BundledExamples) {
  std::size_t planned = 0;
  for (const auto& [path, text] : testkit::bundled_documents("dlt")) {
    const Instance in = io::read_dlt_instance(io::parse_document(text));
    for (const SolverName& s : solver_names()) {
      expect_faces_agree(in, plan(in, {s.solver}), path + " " + s.name);
    }
    ++planned;
  }
  EXPECT_GE(planned, 1u);
}

TEST(DltFaces, RandomSwitches) {
  std::mt19937_64 rng(2025);
  int planned = 0;
  for (int k = 0; k < 3000; ++k) {
    const Instance in = random_instance(rng, 12, 8);
    const Solver solver = k % 5 == 0 ? Solver::lp : Solver::fast;
    try {
      expect_faces_agree(in, plan(in, {solver}), std::to_string(k));
      ++planned;
    } catch (const InputError&) {
      // Values CLP cannot resolve, or rounding beyond what the plan may take: refused.
    }
  }
  EXPECT_GE(planned, 2500);
}

}  // namespace
}  // namespace redist::dlt
