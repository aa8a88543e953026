#include "redist/slicering/model.hpp"

#include <gtest/gtest.h>

#include <string>

#include "redist/common/error.hpp"

namespace redist::slicering {
namespace {

Cluster two(double w0, double w1, double c, double W, double H) {
  Cluster cl;
  cl.w = {w0, w1};
  cl.c = {0.0, c, c, 0.0};
  cl.W = W;
  cl.H = H;
  return cl;
}

// The path of the InputError check_cluster_range throws, or "" when it accepts.
std::string refused_at(const Cluster& cl) {
  try {
    check_cluster_range(cl);
  } catch (const InputError& e) {
    return e.path();
  }
  return "";
}

TEST(Overflow, ClusterRangeNamesTheFieldThatOverflows) {
  EXPECT_EQ(refused_at(two(1, 1, 1, 1, 1)), "");
  EXPECT_EQ(refused_at(two(1, 1e300, 1, 1e10, 1)), "w[1]");     // W w_1
  EXPECT_EQ(refused_at(two(1e-307, 1e-307, 1, 1, 1)), "w[1]");  // sum of 1/w
  EXPECT_EQ(refused_at(two(1, 1, 1, 1, 1e308)), "c[0][1]");     // 2 H c
  EXPECT_EQ(refused_at(two(1, 1, 1e300, 1, 1e7)), "c[0][1]");   // 2 H c
  // c + c overflows before the factor H (exact crashed on an empty ring here).
  EXPECT_EQ(refused_at(two(1e11, 1e11, 1.7e308, 1, 1e-100)), "c[0][1]");
  // c / w overflows the tour cost although H c and W w do not.
  EXPECT_EQ(refused_at(two(1e-200, 1, 1e200, 1e200, 1)), "c[0][1]");
}

TEST(Overflow, ClusterRangeNamesTheFieldThatUnderflows) {
  EXPECT_EQ(refused_at(two(1e-300, 1, 1, 1e-10, 1)), "w[0]");      // W w_0
  EXPECT_EQ(refused_at(two(1, 1, 1e-300, 1, 1e-300)), "c[0][1]");  // H c
  // W w_i is normal but W / sum 1/w (the best conceivable T_step) is not.
  EXPECT_EQ(refused_at(two(1e-160, 1e-160, 1, 3e-148, 1)), "W");
}

TEST(ResourceLimits, ClusterAboveTheProcessorLimit) {
  Cluster cl;
  cl.w.assign(kMaxProcessors + 1, 1.0);  // c is never read: the size is refused first
  EXPECT_EQ(refused_at(cl), "w");
}

}  // namespace
}  // namespace redist::slicering
