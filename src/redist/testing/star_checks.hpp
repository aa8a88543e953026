// GoogleTest checks shared by the star tests (test support only).
#pragma once

#include <gtest/gtest.h>

#include "redist/star/validate.hpp"

namespace redist::testkit {

// The independent validator accepts the schedule and recomputes its makespan.
inline void expect_valid_star(const star::Instance& in, const star::Schedule& s) {
  const CheckResult r = star::check(in, s);
  ASSERT_TRUE(r.valid) << r.reason;
  ASSERT_NEAR(r.makespan, s.makespan, 1e-9 * s.makespan);
}

}  // namespace redist::testkit
