#include "redist/exchange/platform.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "redist/common/error.hpp"
#include "redist/exchange/limits.hpp"

namespace redist::exchange {
namespace {

// Four ranks, rank 2 slower, two clusters {0, 1} and {2, 3}.
Platform four() {
  Platform p;
  p.ranks = 4;
  p.send_bandwidth = {1e9, 1e9, 5e8, 1e9};
  p.recv_bandwidth = {1e9, 2e9, 5e8, 1e9};
  p.latency = 2e-6;
  p.backbone = PlatformBackbone{{std::vector<std::int64_t>{0, 1}, {2, 3}}, 1e9};
  return p;
}

std::string path_of_error(const Platform& p) {
  try {
    validate_platform(p);
  } catch (const InputError& e) {
    return e.path();
  }
  return "";
}

TEST(Platform, ValidPlatformPasses) {
  EXPECT_EQ(path_of_error(four()), "");
  Platform p = four();
  p.backbone.reset();
  p.latency = 0;
  p.calibration = PlatformCalibration{65536, 3, 0.5};
  EXPECT_EQ(path_of_error(p), "");
}

TEST(Platform, EachBadFieldIsNamed) {
  Platform p = four();
  p.ranks = 1;
  EXPECT_EQ(path_of_error(p), "platform.ranks");
  p = four();
  p.ranks = kMaxNodes + 1;
  EXPECT_EQ(path_of_error(p), "platform.ranks");
  p = four();
  p.send_bandwidth.pop_back();
  EXPECT_EQ(path_of_error(p), "platform.send_bandwidth");
  p = four();
  p.send_bandwidth[2] = 0;
  EXPECT_EQ(path_of_error(p), "platform.send_bandwidth[2]");
  p = four();
  p.recv_bandwidth[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(path_of_error(p), "platform.recv_bandwidth[3]");
  p = four();
  p.recv_bandwidth[0] = 1e-310;  // subnormal
  EXPECT_EQ(path_of_error(p), "platform.recv_bandwidth[0]");
  p = four();
  p.latency = -1e-9;
  EXPECT_EQ(path_of_error(p), "platform.latency");
  p = four();
  p.latency = std::numeric_limits<double>::infinity();
  EXPECT_EQ(path_of_error(p), "platform.latency");
  p = four();
  p.backbone->bandwidth = 0;
  EXPECT_EQ(path_of_error(p), "platform.backbone.bandwidth");
  p = four();
  p.calibration = PlatformCalibration{0, 3, 1.0};
  EXPECT_EQ(path_of_error(p), "platform.calibration.bytes");
  p.calibration = PlatformCalibration{1, 0, 1.0};
  EXPECT_EQ(path_of_error(p), "platform.calibration.repetitions");
  p.calibration = PlatformCalibration{1, 1, -1.0};
  EXPECT_EQ(path_of_error(p), "platform.calibration.seconds");
}

TEST(Platform, BackboneClustersMustPartitionTheRanks) {
  Platform p = four();
  p.backbone->clusters = {std::vector<std::int64_t>{0, 1, 2, 3}, {}};
  EXPECT_EQ(path_of_error(p), "platform.backbone.clusters[1]");  // an empty side
  p.backbone->clusters = {std::vector<std::int64_t>{0, 1}, {2, 4}};
  EXPECT_EQ(path_of_error(p), "platform.backbone.clusters[1][1]");  // out of range
  p.backbone->clusters = {std::vector<std::int64_t>{0, 1}, {1, 2, 3}};
  EXPECT_EQ(path_of_error(p), "platform.backbone.clusters[1][0]");  // twice
  p.backbone->clusters = {std::vector<std::int64_t>{0, 1}, {3}};
  EXPECT_EQ(path_of_error(p), "platform.backbone.clusters");  // rank 2 in none
  try {
    validate_platform(p);
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "the clusters hold 3 of the 4 ranks (each rank belongs to one)");
  }
}

TEST(Platform, InstanceCarriesBandwidthsLatencyAndMessages) {
  Platform p = four();
  p.backbone.reset();
  const Instance in = instance_on(p, {{0, 1, 100}, {2, 3, 50}});
  EXPECT_EQ(in.nodes, 4u);
  EXPECT_EQ(in.send_bandwidth, p.send_bandwidth);
  EXPECT_EQ(in.recv_bandwidth, p.recv_bandwidth);
  EXPECT_EQ(in.latency, 2e-6);
  ASSERT_EQ(in.messages.size(), 2u);
  EXPECT_EQ(in.messages[1].bytes, 50);
  EXPECT_FALSE(in.backbone.has_value());
  EXPECT_NO_THROW(validate_instance(in));
}

TEST(Platform, BackboneTransfersAreTypicalNicsTheBackboneCarries) {
  // NICs (the smaller of send and receive): 1e9, 1e9, 5e8, 1e9; the lower median is 1e9.
  Platform p = four();
  p.backbone->bandwidth = 2.5e9;
  Instance in = instance_on(p, {{0, 2, 10}});
  ASSERT_TRUE(in.backbone.has_value());
  EXPECT_EQ(in.backbone->transfers, 2);  // floor(2.5)
  EXPECT_EQ(in.backbone->clusters, p.backbone->clusters);
  p.backbone->bandwidth = 1e8;  // slower than one NIC: still one piece at a time
  EXPECT_EQ(instance_on(p, {{0, 2, 10}}).backbone->transfers, 1);
  p.backbone->bandwidth = 1e15;  // never binding: capped at the number of ranks
  EXPECT_EQ(instance_on(p, {{0, 2, 10}}).backbone->transfers, 4);
  // An even count takes the lower middle value: NICs 1, 2, 3, 4 -> 2.
  p.send_bandwidth = {1, 2, 3, 4};
  p.recv_bandwidth = {1, 2, 3, 4};
  p.backbone->bandwidth = 5;
  EXPECT_EQ(instance_on(p, {{0, 2, 1}}).backbone->transfers, 2);
}

TEST(Platform, InstanceOnRefusesABadPlatform) {
  Platform p = four();
  p.latency = -1;
  EXPECT_THROW(instance_on(p, {{0, 1, 1}}), InputError);
}

TEST(Platform, SubPlatformTakesTheRowsInTheGivenOrder) {
  const Platform p = four();
  const std::vector<int> ranks = {3, 2, 0};
  const Platform sub = sub_platform(p, ranks);
  EXPECT_EQ(sub.ranks, 3u);
  EXPECT_EQ(sub.send_bandwidth, (std::vector<double>{1e9, 5e8, 1e9}));
  EXPECT_EQ(sub.recv_bandwidth, (std::vector<double>{1e9, 5e8, 1e9}));
  EXPECT_EQ(sub.latency, p.latency);
  ASSERT_TRUE(sub.backbone.has_value());
  // Old cluster {0, 1} keeps rank 0, now 2; old {2, 3} keeps 3 and 2, now 0 and 1.
  EXPECT_EQ(sub.backbone->clusters[0], (std::vector<std::int64_t>{2}));
  EXPECT_EQ(sub.backbone->clusters[1], (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(sub.backbone->bandwidth, 1e9);
  EXPECT_NO_THROW(validate_platform(sub));
}

TEST(Platform, SubPlatformDropsABackboneWithAnEmptySide) {
  Platform p = four();
  p.calibration = PlatformCalibration{1024, 2, 0.25};
  const std::vector<int> ranks = {2, 3};
  const Platform sub = sub_platform(p, ranks);
  EXPECT_FALSE(sub.backbone.has_value());
  ASSERT_TRUE(sub.calibration.has_value());
  EXPECT_EQ(sub.calibration->bytes, 1024);
}

TEST(Platform, SubPlatformRefusesBadRanks) {
  const Platform p = four();
  const auto path = [&](std::vector<int> ranks) {
    try {
      sub_platform(p, ranks);
    } catch (const InputError& e) {
      return e.path() + ": " + e.message();
    }
    return std::string();
  };
  EXPECT_EQ(path({0, 4}), "ranks[1]: rank 4 is not in 0..3");
  EXPECT_EQ(path({-1}), "ranks[0]: rank -1 is not in 0..3");
  EXPECT_EQ(path({1, 2, 1}), "ranks[2]: rank 1 is listed twice (first at ranks[0])");
  EXPECT_EQ(path({1, 2}), "");
  Platform bad = four();
  bad.send_bandwidth.pop_back();  // checked first: never read past the rows
  EXPECT_THROW(sub_platform(bad, std::vector<int>{0, 1}), InputError);
}

}  // namespace
}  // namespace redist::exchange
