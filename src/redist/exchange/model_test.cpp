#include "redist/exchange/model.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "redist/common/error.hpp"

namespace redist::exchange {
namespace {

Instance small() {
  Instance in;
  in.nodes = 3;
  in.messages = {{0, 1, 10}, {1, 2, 20}};
  in.send_bandwidth.assign(3, 1.0);
  in.recv_bandwidth.assign(3, 1.0);
  return in;
}

std::string path_of_error(const Instance& in) {
  try {
    validate_instance(in);
  } catch (const InputError& e) {
    return e.path();
  }
  return "";
}

TEST(Model, ValidInstancePasses) { EXPECT_EQ(path_of_error(small()), ""); }

TEST(Model, EachBadFieldIsNamed) {
  Instance in = small();
  in.messages[1].to = 1;
  EXPECT_EQ(path_of_error(in), "messages[1]");  // a self-message
  in = small();
  in.messages[0].to = 3;
  EXPECT_EQ(path_of_error(in), "messages[0][1]");
  in = small();
  in.messages[0].bytes = 0;
  EXPECT_EQ(path_of_error(in), "messages[0][2]");
  in = small();
  in.messages.push_back({0, 1, 5});
  EXPECT_EQ(path_of_error(in), "messages[2]");  // the pair 0 -> 1 a second time
  in = small();
  in.send_bandwidth[2] = 0;
  EXPECT_EQ(path_of_error(in), "send_bandwidth[2]");
  in = small();
  in.recv_bandwidth[0] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(path_of_error(in), "recv_bandwidth[0]");
  in = small();
  in.latency = -1;
  EXPECT_EQ(path_of_error(in), "latency");
  in = small();
  in.nodes = 1;
  EXPECT_EQ(path_of_error(in), "nodes");
  in = small();
  in.send_bandwidth.assign(3, std::numeric_limits<double>::min());
  in.messages[0].bytes = std::int64_t{1} << 53;
  EXPECT_EQ(path_of_error(in), "messages");  // durations beyond any finite schedule
}

TEST(Model, BackboneClustersPartitionTheNodes) {
  Instance in = small();
  in.backbone = Backbone{{std::vector<std::int64_t>{0}, std::vector<std::int64_t>{1}}, 1};
  EXPECT_EQ(path_of_error(in), "backbone.clusters");
  in.backbone->clusters[1] = {1, 0};
  EXPECT_EQ(path_of_error(in), "backbone.clusters[1][1]");
  in.backbone->clusters[1] = {1, 2};
  in.backbone->transfers = 0;
  EXPECT_EQ(path_of_error(in), "backbone.transfers");
}

}  // namespace
}  // namespace redist::exchange
