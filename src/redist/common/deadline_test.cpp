#include "redist/common/deadline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace redist {
namespace {

TEST(Deadline, NoLimitNeverPasses) {
  const Deadline none;
  EXPECT_FALSE(none.limited());
  EXPECT_FALSE(none.passed());
  for (std::int64_t count = 0; count < 1024; ++count) EXPECT_FALSE(none.passed_every(count));
  EXPECT_FALSE(Deadline(std::nullopt).limited());
}

TEST(Deadline, RefusesAnythingButAFiniteNumberAboveZero) {
  for (double bad : {0.0, -0.0, -1.0, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::nan("")}) {
    try {
      Deadline{bad};
      ADD_FAILURE() << bad;
    } catch (const OptionError& e) {
      EXPECT_EQ(e.path(), "time_limit");
      EXPECT_NE(e.message().find("finite number of seconds > 0"), std::string::npos);
    }
  }
}

TEST(Deadline, ATinyLimitHasPassedAtTheNextCheck) {
  const Deadline tiny(1e-9);
  EXPECT_TRUE(tiny.limited());
  EXPECT_EQ(tiny.seconds(), 1e-9);
  // Checked only every `period` counts.
  EXPECT_FALSE(tiny.passed_every(1));
  EXPECT_FALSE(tiny.passed_every(255));
  EXPECT_TRUE(tiny.passed_every(256));
  EXPECT_TRUE(tiny.passed_every(48, 16));
  EXPECT_NE(time_limit_note(tiny, "12 nodes").find("time limit of 1e-09 s reached (12 nodes)"),
            std::string::npos);
}

TEST(Deadline, ALimitBeyondTheClockIsNeverReached) {
  const Deadline far(1e300);
  EXPECT_TRUE(far.limited());
  EXPECT_FALSE(far.passed());
  EXPECT_FALSE(Deadline(3600.0).passed());
}

}  // namespace
}  // namespace redist
