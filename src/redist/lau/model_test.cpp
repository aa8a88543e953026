#include "redist/lau/model.hpp"

#include <gtest/gtest.h>

#include "redist/common/error.hpp"
#include "redist/lau/linear.hpp"

namespace redist::lau {
namespace {

using V = std::vector<std::int64_t>;

// Independent balance check: apply every flow to a copy of the loads.
bool balances(const Instance& in, const V& flows) {
  std::vector<Int128> load(in.loads.begin(), in.loads.end());
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    load[i] -= flows[i];
    load[(i + 1) % n] += flows[i];
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (load[i] != in.targets[i]) return false;
  }
  return true;
}

std::string error_path(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.path();
  }
  return "no error";
}

// LAU Figure 1 (0-indexed): loads 7 0 3 1 1 0, average 2. Figure 2 is the Linear schedule.
TEST(LauModel, Figure1And2) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});
  EXPECT_EQ(linear_flows(in), (V{5, 3, 4, 3, 2, 0}));  // Figure 2
  const V fig1{2, 0, 1, 0, -1, -3};
  EXPECT_EQ(shifted(linear_flows(in), 3), fig1);
  EXPECT_TRUE(balances(in, fig1));
  EXPECT_FALSE(unbalanced_node(in, fig1));
  // Figure 1: only v_6 is red; v_1 sends 2 + 3.
  EXPECT_EQ(sent_by(fig1, 0), 5);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(is_red(in, fig1, i), i == 5) << i;
  // Figure 2: v_2 .. v_5 red.
  const V fig2 = linear_flows(in);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(is_red(in, fig2, i), i >= 1 && i <= 4) << i;
  EXPECT_EQ(traffic(fig1), 7);
  EXPECT_EQ(traffic(fig2), 17);
}

TEST(LauModel, UnbalancedFlowsAreFound) {
  const Instance in = balanced_instance({7, 0, 3, 1, 1, 0});
  EXPECT_EQ(unbalanced_node(in, V{2, 0, 1, 0, -1, -2}), std::optional<std::size_t>{0});
  EXPECT_EQ(unbalanced_node(in, V{2, 1, 1, 0, -1, -3}), std::optional<std::size_t>{1});
}

TEST(LauModel, InputErrors) {
  EXPECT_EQ(error_path([] { balanced_instance({5}); }), "loads");
  EXPECT_EQ(error_path([] { balanced_instance({1, -1, 3}); }), "loads[1]");
  EXPECT_EQ(error_path([] { balanced_instance({1, 2, 4}); }), "loads");  // 7 not divisible by 3
  EXPECT_EQ(error_path([] { balanced_instance({INT64_MAX, 1}); }), "loads");
  EXPECT_EQ(error_path([] { validate_instance(Instance{{1, 2}, {2, 2}}); }), "targets");
  EXPECT_EQ(error_path([] { validate_instance(Instance{{1, 2}, {4, -1}}); }), "targets[1]");
  EXPECT_EQ(error_path([] { validate_instance(Instance{{1, 2}, {3}}); }), "targets");
  EXPECT_EQ(error_path([] {
              validate_instance(Instance{{1, 2}, {INT64_MAX, INT64_MAX}});
            }),
            "targets");
  EXPECT_EQ(error_path([] { shifted(V{INT64_MIN, 0}, 1); }), "h");
  EXPECT_EQ(error_path([] { traffic(V{INT64_MAX, INT64_MAX}); }), "flows");
  EXPECT_NO_THROW(balanced_instance({0, 0}));
}

TEST(LauModel, RandomTargetsKeepTheLinearFlowValid) {
  const Instance in{{4, 0, 5, 1}, {1, 3, 2, 4}};
  validate_instance(in);
  const V linear = linear_flows(in);
  EXPECT_EQ(linear.back(), 0);
  for (std::int64_t h : {-7, 0, 3, 11}) EXPECT_TRUE(balances(in, shifted(linear, h)));
}

}  // namespace
// Rings had no size limit; above kMaxNodes the planners' prefix sums alone exceed a few GB.
TEST(ResourceLimits, RingAboveTheNodeLimit) {
  try {
    balanced_instance(std::vector<std::int64_t>(kMaxNodes + 1, 0));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), "loads");
  }
  Instance in;
  in.loads.assign(kMaxNodes + 1, 0);
  in.targets = in.loads;
  EXPECT_THROW(validate_instance(in), InputError);
}

}  // namespace redist::lau
