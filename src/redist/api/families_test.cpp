// Every family of the list (redist/api/families.hpp) has every face, and its faces render one
// result: on the family's bundled example, the JSON entry points plan and check as the typed
// functions do, the text summary states the status and makespan of that plan, and the chart is an
// SVG document. A family added to the list without one of its faces fails here, by name.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "redist/api/entry_points.hpp"
#include "redist/api/families.hpp"
#include "redist/io/json.hpp"
#include "redist/testing/data_dir.hpp"
#include "redist/testing/faces.hpp"
#include "redist/testing/family_types.hpp"
#include "redist/text/summary.hpp"

namespace redist {
namespace {

template <class F>
class FamilyFaces : public ::testing::Test {};
TYPED_TEST_SUITE(FamilyFaces, testkit::FamilyTypes<Families>);

TYPED_TEST(FamilyFaces, HasEveryFace) {
  using F = TypeParam;
  EXPECT_TRUE(io::HasJsonFace<F>) << F::name << " has no JSON face (io::JsonFace)";
  EXPECT_TRUE(text::HasTextFace<F>) << F::name << " has no text face (text::TextFace)";
  EXPECT_TRUE(svg::HasChartFace<F>) << F::name << " has no chart face (svg::ChartFace)";
  ASSERT_FALSE(F::algorithms().empty()) << F::name;
  if constexpr (requires(typename F::Options o) { o.algorithm; }) {
    EXPECT_EQ(typename F::Options{}.algorithm, F::algorithms().front().name)
        << F::name << ": the default algorithm is not the table's first";
  }
}

TYPED_TEST(FamilyFaces, FacesRenderOnePlanOfTheExample) {
  using F = TypeParam;
  if constexpr (FamilyWithFaces<F>) {
    const std::string instance = testkit::file_text(testkit::data_dir() / F::example);
    ASSERT_FALSE(instance.empty()) << F::example;
    // The typed functions, the way the entry points run them.
    using Face = io::JsonFace<F>;
    const io::EntryOptions none("{}", Face::option_names);
    const typename F::Instance in = Face::read_instance(io::parse_document(instance));
    const typename F::Result result = F::plan(in, Face::options(none));
    ASSERT_TRUE(F::check(in, result).valid) << F::name;
    // The family's bound holds for that plan.
    const double bound = F::lower_bound(in, Face::options(none));
    EXPECT_TRUE(std::isfinite(bound) && bound >= 0) << F::name << " " << bound;
    EXPECT_LE(bound, result.makespan * (1 + 1e-9)) << F::name;
    // The JSON face's document passes the check entry point, and so does plan_json's.
    const std::string document = Face::write(result);
    EXPECT_EQ(io::Json::parse(api::check_json<F>(instance, document))["valid"], true) << F::name;
    const std::string planned = api::plan_json<F>(instance, "{}");
    EXPECT_EQ(io::Json::parse(api::check_json<F>(instance, planned))["valid"], true) << F::name;
    EXPECT_EQ(io::Json::parse(planned)["makespan"], io::Json::parse(document)["makespan"])
        << F::name;
    // The text face states that plan's status and makespan.
    const std::string summary = api::plan_json<F>(instance, R"({"format": "text"})");
    EXPECT_EQ(testkit::claims_disagreement(summary, io::Json::parse(planned)), "")
        << F::name << "\n"
        << summary;
    EXPECT_NE(testkit::summary_field(summary, "makespan"), "") << F::name << "\n" << summary;
    // The chart face draws it.
    svg::ChartFace<F>::limits(in);
    const std::string chart = svg::ChartFace<F>::chart(in, result, "test");
    EXPECT_NE(chart.find("<svg"), std::string::npos) << F::name;
    // The picture entry point draws the result document read back, after checking it.
    EXPECT_EQ(api::chart_svg<F>(instance, document, "test"), chart) << F::name;
  }
}

// A family without faces is told apart: what makes the tests above fail for a family added to the
// list before its faces.
struct Faceless {
  static constexpr std::string_view name = "faceless";
  static constexpr std::string_view title = "A family with no face";
  static constexpr std::string_view root = "$.faceless";
  static constexpr std::string_view example = "none.json";
  using Instance = int;
  struct Result : PlanClaims {};
  struct Options {
    std::optional<double> time_limit;
  };
  static const std::vector<AlgorithmName>& algorithms() {
    static const std::vector<AlgorithmName> table = {{"only", "the only one"}};
    return table;
  }
  static Result plan(const Instance&, const Options&) { return {}; }
  static CheckResult check(const Instance&, const Result&) { return {}; }
  static double lower_bound(const Instance&, const Options&) { return 0; }
};

TEST(FamilyFaces, AFamilyWithoutFacesIsDetected) {
  static_assert(Family<Faceless>);
  EXPECT_FALSE(io::HasJsonFace<Faceless>);
  EXPECT_FALSE(text::HasTextFace<Faceless>);
  EXPECT_FALSE(svg::HasChartFace<Faceless>);
  EXPECT_FALSE(FamilyWithFaces<Faceless>);
  EXPECT_TRUE(FamilyWithFaces<ring::Family>);
  EXPECT_EQ(Families::size, 6U);
}

}  // namespace
}  // namespace redist
