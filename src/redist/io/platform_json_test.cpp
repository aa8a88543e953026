#include "redist/io/platform_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "redist/common/error.hpp"
#include "redist/testing/data_dir.hpp"

namespace redist::io {
namespace {

// "message (at path)" of the reader's error, or "" when the text is read.
std::string error_of(const std::string& text) {
  try {
    read_platform(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A document of four ranks with `field` (a member of the platform object, or "") added.
std::string four(const std::string& field = "") {
  return R"({"platform": {"ranks": 4, "send_bandwidth": [1e9, 1e9, 5e8, 1e9],
             "recv_bandwidth": 1e9, "latency": 2e-6)" +
         (field.empty() ? "" : ", " + field) + "}}";
}

TEST(PlatformJson, ReadsEveryField) {
  const exchange::Platform p = read_platform(four(
      R"("backbone": {"clusters": [[0, 1], [2, 3]], "bandwidth": 1.5e9},
         "calibration": {"bytes": 65536, "repetitions": 3, "seconds": 0.25})"));
  EXPECT_EQ(p.ranks, 4u);
  EXPECT_EQ(p.send_bandwidth, (std::vector<double>{1e9, 1e9, 5e8, 1e9}));
  EXPECT_EQ(p.recv_bandwidth, (std::vector<double>(4, 1e9)));  // one number for every rank
  EXPECT_EQ(p.latency, 2e-6);
  ASSERT_TRUE(p.backbone.has_value());
  EXPECT_EQ(p.backbone->clusters[0], (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(p.backbone->clusters[1], (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(p.backbone->bandwidth, 1.5e9);
  ASSERT_TRUE(p.calibration.has_value());
  EXPECT_EQ(p.calibration->bytes, 65536);
  EXPECT_EQ(p.calibration->repetitions, 3);
  EXPECT_EQ(p.calibration->seconds, 0.25);
}

TEST(PlatformJson, DefaultsAndOptionalFields) {
  const exchange::Platform p =
      read_platform(R"({"platform": {"ranks": 2, "send_bandwidth": 3, "recv_bandwidth": 4}})");
  EXPECT_EQ(p.latency, 0.0);
  EXPECT_FALSE(p.backbone.has_value());
  EXPECT_FALSE(p.calibration.has_value());
  EXPECT_EQ(p.send_bandwidth, (std::vector<double>{3, 3}));
  EXPECT_EQ(p.recv_bandwidth, (std::vector<double>{4, 4}));
  // A top-level "$schema" is for editors and validators only.
  EXPECT_EQ(error_of(R"({"$schema": "x.json", "platform": {"ranks": 2, "send_bandwidth": 3,
                        "recv_bandwidth": 4}})"),
            "");
}

TEST(PlatformJson, ErrorsNameTheirPath) {
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 4, "send_bandwidth": [1, 1, 0, 1],
                        "recv_bandwidth": 1}})"),
            "must be > 0, got 0 (at $.platform.send_bandwidth[2])");
  EXPECT_EQ(error_of(four(R"("ports": 1)")), "unknown field (at $.platform.ports)");
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 4, "recv_bandwidth": 1}})"),
            "missing field (at $.platform.send_bandwidth)");
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 4.0, "send_bandwidth": 1, "recv_bandwidth": 1}})"),
            "must be an integer, got 4.0 (at $.platform.ranks)");
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 1, "send_bandwidth": 1, "recv_bandwidth": 1}})"),
            "must be in 2..1000000 (at $.platform.ranks)");
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 2, "send_bandwidth": 1, "recv_bandwidth": 1,
                        "latency": -1}})"),
            "must be a finite number >= 0 (seconds per piece) (at $.platform.latency)");
  EXPECT_EQ(error_of(four(R"("backbone": {"clusters": [[0, 1], [2, 3]]})")),
            "missing field (at $.platform.backbone.bandwidth)");
  EXPECT_EQ(error_of(four(R"("backbone": {"clusters": [[0, 1], [1, 3]], "bandwidth": 1})")),
            "rank 1 is listed twice (at $.platform.backbone.clusters[1][0])");
  EXPECT_EQ(error_of(four(R"("backbone": {"clusters": [[0, 1, 2, 3]], "bandwidth": 1})")),
            "must list two clusters (at $.platform.backbone.clusters)");
  EXPECT_EQ(error_of(four(R"("calibration": {"bytes": 0, "repetitions": 1, "seconds": 1})")),
            "must be >= 1 (at $.platform.calibration.bytes)");
  EXPECT_EQ(error_of(four(R"("calibration": {"bytes": 1, "repetitions": 1, "seconds": 1,
                             "host": "x"})")),
            "unknown field (at $.platform.calibration.host)");
  EXPECT_EQ(error_of(R"({"platform": {"ranks": 3, "send_bandwidth": [1, 1],
                        "recv_bandwidth": 1}})"),
            "has 2 entries, expected 3 (one per rank) (at $.platform.send_bandwidth)");
  EXPECT_EQ(error_of(R"({"exchange": {}})").substr(0, 13), "unknown field");
}

TEST(PlatformJson, RoundTripIsExact) {
  exchange::Platform p;
  p.ranks = 3;
  p.send_bandwidth = {1.0 / 3.0, 123456789.123456789, 1e-300};
  p.recv_bandwidth = {2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
  p.latency = 1.0 / 7.0 * 1e-6;
  p.backbone = exchange::PlatformBackbone{{std::vector<std::int64_t>{2}, {0, 1}}, 0.1 + 0.2};
  p.calibration = exchange::PlatformCalibration{1 << 20, 3, 0.123456789012345678};
  const std::string text = platform_json(p);
  const exchange::Platform q = read_platform(text);
  EXPECT_EQ(q.ranks, p.ranks);
  EXPECT_EQ(q.send_bandwidth, p.send_bandwidth);
  EXPECT_EQ(q.recv_bandwidth, p.recv_bandwidth);
  EXPECT_EQ(q.latency, p.latency);
  ASSERT_TRUE(q.backbone.has_value());
  EXPECT_EQ(q.backbone->clusters, p.backbone->clusters);
  EXPECT_EQ(q.backbone->bandwidth, p.backbone->bandwidth);
  ASSERT_TRUE(q.calibration.has_value());
  EXPECT_EQ(q.calibration->bytes, p.calibration->bytes);
  EXPECT_EQ(q.calibration->repetitions, p.calibration->repetitions);
  EXPECT_EQ(q.calibration->seconds, p.calibration->seconds);
  EXPECT_EQ(platform_json(q), text);  // and writes the same text again
  // Equal bandwidths are written as one number.
  EXPECT_NE(text.find("\"recv_bandwidth\":0.6666666666666666,"), std::string::npos) << text;
}

TEST(PlatformJson, RoundTripWithoutOptionalFields) {
  exchange::Platform p;
  p.ranks = 2;
  p.send_bandwidth = {1e9, 2e9};
  p.recv_bandwidth = {3e9, 4e9};
  const exchange::Platform q = read_platform(platform_json(p));
  EXPECT_EQ(q.send_bandwidth, p.send_bandwidth);
  EXPECT_EQ(q.recv_bandwidth, p.recv_bandwidth);
  EXPECT_EQ(q.latency, 0.0);
  EXPECT_FALSE(q.backbone.has_value());
  EXPECT_FALSE(q.calibration.has_value());
}

TEST(PlatformJson, BundledExampleReads) {
  std::ifstream in(testkit::data_dir() / "platforms" / "example-4.json");
  ASSERT_TRUE(in) << "data/platforms/example-4.json";
  std::stringstream text;
  text << in.rdbuf();
  const exchange::Platform p = read_platform(text.str());
  EXPECT_EQ(p.ranks, 4u);
  EXPECT_TRUE(p.backbone.has_value());
  const exchange::Instance in4 = exchange::instance_on(p, {{0, 2, 1000}});
  EXPECT_NO_THROW(exchange::validate_instance(in4));
}

}  // namespace
}  // namespace redist::io
