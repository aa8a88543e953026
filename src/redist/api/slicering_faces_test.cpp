// The faces of a SliceRing plan agree: the text summary's makespan, lower bound and optimality are
// the JSON document's makespan, lower_bound (absent: "none") and optimal, on every bundled cluster
// and on thousands of random clusters, for every algorithm (both render the one typed solution).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "redist/io/json.hpp"
#include "redist/io/slicering_json.hpp"
#include "redist/slicering.hpp"
#include "redist/testing/faces.hpp"
#include "redist/testing/random_cluster.hpp"
#include "redist/text/summary.hpp"

namespace redist {
namespace {

void expect_faces_agree(const std::string& cluster, const std::string& algorithm,
                        const std::string& what) {
  const io::Json json =
      io::Json::parse(slicering::plan_json(cluster, R"({"algorithm": ")" + algorithm + R"("})"));
  const std::string text =
      slicering::plan_json(cluster, R"({"algorithm": ")" + algorithm + R"(", "format": "text"})");
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "makespan")),
            text::number(json["makespan"].get<double>()))
      << what;
  const std::string bound = json.contains("lower_bound")
                                ? text::number(json["lower_bound"].get<double>())
                                : std::string("none");
  EXPECT_EQ(testkit::first_word(testkit::summary_field(text, "lower bound")), bound) << what << "\n"
                                                                                     << text;
  const std::string optimal = testkit::summary_field(text, "optimal");
  EXPECT_EQ(optimal.starts_with("yes"), json["optimal"].get<bool>()) << what << "\n" << text;
  EXPECT_EQ(optimal.starts_with("not proven"), !json["optimal"].get<bool>()) << what;
  EXPECT_EQ(testkit::claims_disagreement(text, json), "") << what << "\n" << text;
}

TEST(SliceringFaces, EveryBundledCluster) {
  int seen = 0;
  for (const auto& [path, text] : testkit::bundled_documents("cluster")) {
    ++seen;
    for (const char* algorithm : {"auto", "greedy", "tsp"}) {
      expect_faces_agree(text, algorithm, path + " " + algorithm);
    }
  }
  EXPECT_GE(seen, 3);
}

// exact's optimality is proven by its search, and the text says so.
TEST(SliceringFaces, ExactSaysHowItProved) {
  const std::string text = io::read_text((testkit::data_dir() / "slicering/small.json").string());
  for (const char* algorithm : {"exact", "auto"}) {
    const std::string summary = slicering::plan_json(
        text, R"({"algorithm": ")" + std::string(algorithm) + R"(", "format": "text"})");
    // The search stops at the first set, whose ring meets the lower bound: the bound proves it.
    EXPECT_EQ(testkit::summary_field(summary, "optimal"), "yes (makespan equals the lower bound)")
        << summary;
  }
}

TEST(SliceringFaces, RandomClustersEveryAlgorithm) {
  std::mt19937_64 rng(20261125);
  const char* algorithms[] = {"auto", "greedy", "tsp", "exact"};
  const double ratios[] = {1e-3, 1.0, 1e3};
  for (int k = 0; k < 2000; ++k) {
    const std::size_t p = 1 + static_cast<std::size_t>(k % 8);
    const slicering::Cluster cluster =
        slicering::testing::random_cluster(rng, p, ratios[k % 3], 1.0);
    const std::string instance = io::write_cluster(cluster).dump();
    const std::string algorithm = algorithms[(k / 3) % 4];
    expect_faces_agree(instance, algorithm, instance + " " + algorithm);
  }
}

}  // namespace
}  // namespace redist
