#include "redist/common/checked.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace redist {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(Checked, AddDetectsOverflowBothWays) {
  EXPECT_EQ(checked_add(2, 3), 5);
  EXPECT_EQ(checked_add(kMax, 1), std::nullopt);
  EXPECT_EQ(checked_add(kMin, -1), std::nullopt);
  EXPECT_EQ(checked_add(kMax, kMin), -1);
}

TEST(Checked, SubAndMul) {
  EXPECT_EQ(checked_sub(kMin, 1), std::nullopt);
  EXPECT_EQ(checked_sub(0, kMin), std::nullopt);
  EXPECT_EQ(checked_mul(kMax / 2, 2), kMax - 1);
  EXPECT_EQ(checked_mul(kMax / 2 + 1, 2), std::nullopt);
}

TEST(Checked, SumFailsOnAnyOverflowingPrefix) {
  std::vector<std::int64_t> ok{kMax, -5, 5};
  EXPECT_EQ(checked_sum(ok), kMax);
  std::vector<std::int64_t> bad{kMax, 1, -1};
  EXPECT_EQ(checked_sum(bad), std::nullopt);
}

}  // namespace
}  // namespace redist
