// Tests of apps/redist-mpi/smpi_pstates.hpp: the power states a balance trace gives each SMPI host.
#include "apps/redist-mpi/smpi_pstates.hpp"

#include <gtest/gtest.h>

namespace redist::mpi {
namespace {

balance::Trace trace_of(std::vector<std::vector<double>> speeds) {
  balance::Trace t;
  t.speeds = std::move(speeds);
  return t;
}

TEST(SmpiPstates, DistinctSpeedsInOrderOfFirstAppearance) {
  const balance::Trace t = trace_of({{5, 1}, {5, 2}, {3, 2}, {5, 1}, {3, 7}});
  EXPECT_EQ(host_speeds(t, 0), (std::vector<double>{5, 3}));
  EXPECT_EQ(host_speeds(t, 1), (std::vector<double>{1, 2, 7}));
}

TEST(SmpiPstates, EveryIterationMapsToItsSpeed) {
  const balance::Trace t = trace_of({{5, 1}, {5, 2}, {3, 2}, {5, 1}, {3, 7}});
  EXPECT_EQ(host_pstates(t, 0), (std::vector<unsigned long>{0, 0, 1, 0, 1}));
  EXPECT_EQ(host_pstates(t, 1), (std::vector<unsigned long>{0, 1, 1, 0, 2}));
  for (std::size_t host = 0; host < 2; ++host) {
    const auto speeds = host_speeds(t, host);
    const auto pstates = host_pstates(t, host);
    for (std::size_t k = 0; k < t.speeds.size(); ++k)
      EXPECT_EQ(speeds[pstates[k]], t.speeds[k][host]);
  }
}

TEST(SmpiPstates, ConstantSpeedIsOnePstate) {
  const balance::Trace t = trace_of({{4}, {4}, {4}});
  EXPECT_EQ(host_speeds(t, 0), (std::vector<double>{4}));
  EXPECT_EQ(host_pstates(t, 0), (std::vector<unsigned long>{0, 0, 0}));
}

}  // namespace
}  // namespace redist::mpi
