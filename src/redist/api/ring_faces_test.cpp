// The faces of a ring plan agree: the text summary's makespan, lower bound (its first number) and
// optimality are the JSON document's makespan, lower_bound and optimal, on every bundled ring
// instance and on thousands of random rings of every case (both render the one typed schedule).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "redist/io/json.hpp"
#include "redist/io/ring_json.hpp"
#include "redist/ring.hpp"
#include "redist/testing/faces.hpp"
#include "redist/testing/random_ring.hpp"
#include "redist/text/summary.hpp"

namespace redist {
namespace {

// The summary and the document of one plan state the same claims.
void expect_faces_agree(const std::string& instance, const std::string& options,
                        const std::string& what) {
  const io::Json json = io::Json::parse(ring::plan_json(instance, options));
  const std::string text_options =
      options == "{}" ? R"({"format": "text"})"
                      : options.substr(0, options.size() - 1) + R"(, "format": "text"})";
  const std::string text = ring::plan_json(instance, text_options);
  EXPECT_EQ(testkit::summary_field(text, "makespan"),
            text::quantity(json["makespan"].get<double>(), text::kTimeUnits))
      << what;
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")),
            text::number(json["lower_bound"].get<double>()))
      << what << "\n"
      << text;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), json["optimal"].get<bool>()) << what << "\n" << text;
  EXPECT_EQ(optimal.starts_with("not proven"), !json["optimal"].get<bool>()) << what;
  EXPECT_EQ(testkit::claims_disagreement(text, json), "") << what << "\n" << text;
}

TEST(RingFaces, EveryBundledRingInstance) {
  int seen = 0;
  for (const auto& [path, text] : testkit::bundled_documents("ring")) {
    ++seen;
    expect_faces_agree(text, "{}", path);
  }
  EXPECT_GE(seen, 3);
}

// The known case where the text recomputed the bound: exact proves 22 above System 6's 20.
TEST(RingFaces, TheTextStatesTheBoundExactProved) {
  const std::string text =
      io::read_text((testkit::data_dir() / "examples/above-system6.json").string());
  const std::string summary = ring::plan_json(text, R"({"format": "text"})");
  EXPECT_EQ(testkit::summary_field(summary, "lower bound"),
            "22 time units (lemma12 18, system6 20, exact 22)")
      << summary;
  EXPECT_EQ(testkit::summary_field(summary, "optimal"), "yes (proven by exhaustive search)")
      << summary;
}

TEST(RingFaces, RandomRingsOfEveryCase) {
  std::mt19937_64 rng(20261125);
  int planned = 0;
  for (int k = 0; k < 2000; ++k) {
    testkit::RandomRingOptions o;
    o.n_min = 2;
    o.n_max = k % 5 == 0 ? 30 : 7;
    o.load_max = k % 3 == 0 ? 6 : 40;
    o.target_min = k % 4 == 0 ? 0 : 1;
    o.bidirectional = k % 2 == 0;
    o.homogeneous = k % 3 == 1;
    const ring::Instance in = testkit::random_ring(rng, o);
    const std::string instance = io::write_ring_instance(in).dump();
    const char* algorithms[] = {"auto", "heuristic", "exact"};
    const std::string algorithm = in.bidirectional ? algorithms[k % 3] : "auto";
    const std::string options = R"({"algorithm": ")" + algorithm + R"("})";
    try {
      expect_faces_agree(instance, options, instance + " " + options);
      ++planned;
    } catch (const InputError& e) {
      // exact refuses rings over its limits; every other algorithm plans every ring here.
      EXPECT_EQ(algorithm, "exact") << e.what();
    }
  }
  EXPECT_GE(planned, 1500);  // exact refuses about a sixth (over its limits)
}

}  // namespace
}  // namespace redist
