#include "redist/star/order.hpp"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "redist/common/error.hpp"

namespace redist::star {
namespace {

double makespan_of(const OrderInstance& in, const std::vector<std::size_t>& senders,
                   const std::vector<std::size_t>& receivers) {
  double master_in = 0, master_out = 0;
  for (std::size_t k = 0; k < senders.size(); ++k) {
    master_in += in.c[senders[k]];
    master_out = std::max(master_in, master_out) + in.c[receivers[k]];
  }
  return master_out;
}

// Every sequence of senders and of receivers (each task a unit).
double brute_force(const OrderInstance& in) {
  std::vector<std::size_t> senders, receivers;
  for (std::size_t i = 0; i < in.delta.size(); ++i) {
    for (std::int64_t k = 0; k < in.delta[i]; ++k) senders.push_back(i);
    for (std::int64_t k = 0; k < -in.delta[i]; ++k) receivers.push_back(i);
  }
  double best = 1e300;
  std::sort(senders.begin(), senders.end());
  do {
    std::sort(receivers.begin(), receivers.end());
    do {
      best = std::min(best, makespan_of(in, senders, receivers));
    } while (std::next_permutation(receivers.begin(), receivers.end()));
  } while (std::next_permutation(senders.begin(), senders.end()));
  return senders.empty() ? 0 : best;
}

TEST(StarOrder, EqualsBruteForceOnTinyInstances) {
  std::mt19937_64 rng(20061026);
  int non_decreasing_worse = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t m = 2 + rng() % 4;
    OrderInstance in;
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < m; ++i) {
      in.c.push_back(1 + static_cast<double>(rng() % 9));
      const std::int64_t d = static_cast<std::int64_t>(rng() % 5) - 2;
      in.delta.push_back(d);
      sum += d;
    }
    // Balance on a random worker, keeping |delta| small.
    in.delta[rng() % m] -= sum;
    std::int64_t moved = 0;
    for (auto d : in.delta) moved += std::max<std::int64_t>(d, 0);
    if (moved > 6) continue;
    const Schedule s = order(in);
    ASSERT_NEAR(s.makespan, brute_force(in), 1e-9) << "trial " << trial;
    // The proof's last sentence (receivers by non-decreasing c) is suboptimal on some instances.
    std::vector<std::size_t> snd, rcv;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::int64_t k = 0; k < in.delta[i]; ++k) snd.push_back(i);
      for (std::int64_t k = 0; k < -in.delta[i]; ++k) rcv.push_back(i);
    }
    auto by_c = [&](std::size_t a, std::size_t b) { return in.c[a] < in.c[b]; };
    std::stable_sort(snd.begin(), snd.end(), by_c);
    std::stable_sort(rcv.begin(), rcv.end(), by_c);
    if (makespan_of(in, snd, rcv) > s.makespan + 1e-9) ++non_decreasing_worse;
  }
  EXPECT_GT(non_decreasing_worse, 100);
}

TEST(StarOrder, TransfersFollowTheorem1) {
  const OrderInstance in{{3, 1, 2, 5}, {2, 1, -1, -2}};
  const Schedule s = order(in);
  ASSERT_EQ(s.transfers.size(), 3u);
  EXPECT_EQ(s.transfers[0].from, 1);  // c = 1 first
  EXPECT_EQ(s.transfers[1].from, 0);
  EXPECT_EQ(s.transfers[0].to, 3);  // c = 5 first
  EXPECT_EQ(s.transfers[2].to, 2);
  // Arrivals at the master: 1, 4, 7; forwards [1,6), [6,11), [11,13).
  EXPECT_DOUBLE_EQ(s.makespan, 13);
  EXPECT_TRUE(s.optimal);
}

TEST(StarOrder, RejectsBadInstances) {
  EXPECT_THROW(validate_order_instance({{1, 1}, {1, 0}}), InputError);
  EXPECT_THROW(validate_order_instance({{1}, {1, -1}}), InputError);
  EXPECT_THROW(validate_order_instance({{1, 0}, {1, -1}}), InputError);
  EXPECT_THROW(validate_order_instance({{1, 1}, {INT64_MAX, INT64_MAX}}), InputError);
  EXPECT_NO_THROW(validate_order_instance({{1, 1}, {0, 0}}));
  EXPECT_EQ(order({{1, 1}, {0, 0}}).makespan, 0);
}

}  // namespace
}  // namespace redist::star
